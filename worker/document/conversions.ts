import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FileRecord } from '../../core/pco/store.js';

const run = promisify(execFile);
const CONVERT_TIMEOUT_MS = 120_000;
/** pandoc reads MMD's \( \) and \[ \] maths with this reader. */
const PANDOC_FROM = 'markdown+tex_math_single_backslash+tex_math_dollars';

type Put = (ext: string, body: string | Buffer, contentType: string) => Promise<void>;

export const CONTENT_TYPES: Record<string, string> = {
  mmd: 'text/markdown; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html; charset=utf-8',
  'tex.zip': 'application/zip',
  'md.zip': 'application/zip',
  'mmd.zip': 'application/zip',
  'html.zip': 'application/zip',
  'lines.json': 'application/json',
  'lines.mmd.json': 'application/json',
};

/** Makes one format from the MMD in a scratch folder; null when this build cannot make it. */
async function make(ext: string, mmd: string, dir: string): Promise<Buffer | null> {
  const src = join(dir, 'document.mmd');
  await writeFile(src, mmd);
  const pandoc = async (to: string, out: string, extra: string[] = []) => {
    await run('pandoc', ['-f', PANDOC_FROM, '-t', to, ...extra, '-o', join(dir, out), src], { timeout: CONVERT_TIMEOUT_MS });
    return readFile(join(dir, out));
  };
  const zip = async (name: string, files: string[]) => {
    await run('zip', ['-q', '-j', join(dir, name), ...files.map((f) => join(dir, f))], { timeout: CONVERT_TIMEOUT_MS });
    return readFile(join(dir, name));
  };
  switch (ext) {
    case 'md':
      return Buffer.from(mmd);
    case 'docx':
      return pandoc('docx', 'document.docx'); // maths become native Word equations
    case 'html':
      return pandoc('html', 'document.html', ['--standalone', '--mathml', '--metadata', 'title=Document']);
    case 'tex.zip':
      await pandoc('latex', 'document.tex', ['--standalone']);
      return zip('document.tex.zip', ['document.tex']);
    case 'mmd.zip':
      return zip('document.mmd.zip', ['document.mmd']);
    case 'md.zip':
      await writeFile(join(dir, 'document.md'), mmd);
      return zip('document.md.zip', ['document.md']);
    case 'html.zip':
      await pandoc('html', 'document.html', ['--standalone', '--mathml', '--metadata', 'title=Document']);
      return zip('document.html.zip', ['document.html']);
    default:
      return null;
  }
}

/**
 * Writes each requested conversion format beside the MMD and reports its status. A format this
 * build cannot make (pdf, latex.pdf, pptx, xlsx, mmd.overlay.pdf) is reported as error
 * unsupported_format; a conversion that fails is error sys_exception. Neither fails the document
 * (spec 6.1: a failed conversion does not turn file.completed into file.error).
 */
export async function writeConversions(mmd: string, formats: Record<string, boolean>, put: Put): Promise<FileRecord['conversion_status']> {
  const status: FileRecord['conversion_status'] = {};
  const wanted = Object.entries(formats).filter(([, on]) => on).map(([ext]) => ext);
  if (!wanted.length) return status;
  const dir = await mkdtemp(join(tmpdir(), 'folio-convert-'));
  try {
    for (const ext of wanted) {
      try {
        const body = await make(ext, mmd, dir);
        if (!body) {
          status[ext] = { status: 'error', error_id: 'unsupported_format' };
          continue;
        }
        await put(ext, body, CONTENT_TYPES[ext] ?? 'application/octet-stream');
        status[ext] = { status: 'completed' };
      } catch {
        status[ext] = { status: 'error', error_id: 'sys_exception' };
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return status;
}
