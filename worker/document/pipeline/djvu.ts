import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ApiError } from '../../../core/errors.js';
import { MAX_OFFICE_EXPANDED_BYTES, OFFICE_TIMEOUT_MS, type ConvertedPdf, type OfficeOptions } from './office.js';

const run = promisify(execFile);

/**
 * DjVu → PDF with djvulibre's ddjvu (Debian djvulibre-bin). The PDF holds each page as an image
 * at the DjVu's own resolution, so its pages go through the scanned-page OCR path; a hidden text
 * layer in the DjVu is not carried over (ddjvu does not write one).
 */

/** ddjvu on PATH by default; a seam for tests of the missing-tool answer. */
export interface DjvuOptions extends OfficeOptions {
  ddjvu?: string;
}

export async function djvuToPdf(path: string, opts: DjvuOptions = {}): Promise<ConvertedPdf> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-djvu-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const pdfPath = join(dir, 'book.pdf');
    try {
      await run(opts.ddjvu ?? 'ddjvu', ['-format=pdf', '-quality=85', path, pdfPath], {
        timeout: opts.timeoutMs ?? OFFICE_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 1024 * 1024,
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderr?: string; killed?: boolean };
      if (e.code === 'ENOENT')
        throw new ApiError('unsupported_format', 'Cannot convert DjVu: ddjvu (djvulibre-bin) is not installed on this worker', {}, false);
      if (e.killed) throw new ApiError('sys_exception', 'ddjvu timed out converting this DjVu file', {}, true);
      throw new ApiError(
        'unsupported_format',
        `ddjvu could not read this DjVu file: ${String(e.stderr ?? e.message)
          .trim()
          .slice(0, 300)}`,
        {},
        false,
      );
    }
    // Pages decoded from a small DjVu can be enormous (the format compresses scans about ten times better than
    // PDF images do): the same bound as an office file's expansion.
    if ((await stat(pdfPath)).size > MAX_OFFICE_EXPANDED_BYTES) {
      throw new ApiError(
        'content_too_large',
        `This DjVu file expands to more than ${MAX_OFFICE_EXPANDED_BYTES} bytes of PDF`,
        { max_limit: MAX_OFFICE_EXPANDED_BYTES },
        false,
      );
    }
    return { pdfPath, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
