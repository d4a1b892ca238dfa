import type { FileRecord } from '../../core/pco/store.js';

type Put = (ext: string, body: string | Buffer, contentType: string) => Promise<void>;

/**
 * Writes each requested conversion format beside the MMD and reports its status. Formats this
 * build cannot make yet are reported as error unsupported_format rather than silently skipped.
 */
export async function writeConversions(mmd: string, formats: Record<string, boolean>, put: Put): Promise<FileRecord['conversion_status']> {
  const status: FileRecord['conversion_status'] = {};
  for (const [ext, on] of Object.entries(formats)) {
    if (!on) continue;
    if (ext === 'md') {
      await put('md', mmd, 'text/markdown; charset=utf-8');
      status[ext] = { status: 'completed' };
    } else {
      status[ext] = { status: 'error', error_id: 'unsupported_format' };
    }
  }
  return status;
}
