import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ApiError } from '../../../core/errors.js';
import { officeToPdf, OFFICE_TIMEOUT_MS, type ConvertedPdf, type OfficeOptions } from './office.js';

const run = promisify(execFile);

/**
 * EPUB → PDF. Debian's LibreOffice has no EPUB import filter, so pandoc (which reads EPUB) makes a
 * DOCX first, and LibreOffice lays that out as PDF like any office input.
 */
export async function epubToPdf(path: string, opts: OfficeOptions = {}): Promise<ConvertedPdf> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-epub-'));
  try {
    const docx = join(dir, 'book.docx');
    try {
      await run('pandoc', ['-f', 'epub', '-t', 'docx', '-o', docx, path], { timeout: opts.timeoutMs ?? OFFICE_TIMEOUT_MS });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderr?: string };
      if (e.code === 'ENOENT') throw new ApiError('unsupported_format', 'Cannot convert EPUB: pandoc is not installed on this worker', {}, false);
      throw new ApiError('unsupported_format', `pandoc could not read this EPUB: ${String(e.stderr ?? e.message).trim().slice(0, 300)}`, {}, false);
    }
    const pdf = await officeToPdf(docx, 'docx', opts);
    return { pdfPath: pdf.pdfPath, cleanup: async () => { await pdf.cleanup(); await rm(dir, { recursive: true, force: true }); } };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
