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
export function epubToPdf(path: string, opts: OfficeOptions = {}): Promise<ConvertedPdf> {
  return pandocToPdf(path, 'epub', 'EPUB', opts);
}

/**
 * Any input pandoc reads (`from`: epub, html…) → DOCX with pandoc → PDF with LibreOffice. The
 * intermediate DOCX lives in its own temporary directory, removed by the returned cleanup.
 * `label` names the input format in error messages.
 */
export async function pandocToPdf(path: string, from: string, label: string, opts: OfficeOptions = {}): Promise<ConvertedPdf> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-pandoc-'));
  try {
    const docx = join(dir, 'book.docx');
    try {
      await run('pandoc', ['-f', from, '-t', 'docx', '-o', docx, path], { timeout: opts.timeoutMs ?? OFFICE_TIMEOUT_MS, killSignal: 'SIGKILL' });
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { stderr?: string; killed?: boolean };
      if (e.code === 'ENOENT') throw new ApiError('unsupported_format', `Cannot convert ${label}: pandoc is not installed on this worker`, {}, false);
      if (e.killed) throw new ApiError('sys_exception', `pandoc timed out converting this ${label}`, {}, true);
      throw new ApiError(
        'unsupported_format',
        `pandoc could not read this ${label}: ${String(e.stderr ?? e.message)
          .trim()
          .slice(0, 300)}`,
        {},
        false,
      );
    }
    const pdf = await officeToPdf(docx, 'docx', opts);
    return {
      pdfPath: pdf.pdfPath,
      cleanup: async () => {
        await pdf.cleanup();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
