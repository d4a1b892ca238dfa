import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ApiError } from '../../../core/errors.js';
import type { LinkArea } from './inline.js';
import type { RenderedPage } from './page-mmd.js';
import { readPage } from './pdf.js';
import { glyphsToLines, type TextLine } from './text-layer.js';

/** One page, under a timer: read, classify (text, scanned, blank), convert; failures stay on the page. */

export interface PageOutcome {
  page: number;
  status: 'completed' | 'failed';
  error_id?: string;
  error_message?: string;
  seconds: number;
  kind: 'text' | 'scanned' | 'blank';
}

export interface PageContentLines {
  lines: TextLine[];
  links: LinkArea[];
  width: number;
  height: number;
}

export interface PageResult {
  outcome: PageOutcome;
  size: { width: number; height: number };
  rendered?: RenderedPage;
}

export const SCANNED_PAGE_MESSAGE = 'scanned page: OCR engine not available in this build';

class PageTimeout extends Error {}

export async function runPage(
  doc: PDFDocumentProxy,
  n: number,
  timeoutMs: number,
  convert: (content: PageContentLines) => RenderedPage,
  opts: { wantLinks: boolean; beforePage?: (page: number) => Promise<void> | void },
): Promise<PageResult> {
  const started = performance.now();
  const seconds = () => Math.round(performance.now() - started) / 1000;
  let size = { width: 0, height: 0 };
  const work = (async (): Promise<PageResult> => {
    await opts.beforePage?.(n);
    const page = await doc.getPage(n);
    try {
      const content = await readPage(page, opts.wantLinks);
      size = { width: content.width, height: content.height };
      const lines = glyphsToLines(content.glyphs);
      if (lines.length === 0) {
        if (content.hasImages) {
          return { size, outcome: { page: n, status: 'failed', kind: 'scanned', error_id: 'sys_exception', error_message: SCANNED_PAGE_MESSAGE, seconds: seconds() } };
        }
        return { size, outcome: { page: n, status: 'completed', kind: 'blank', seconds: seconds() } };
      }
      const rendered = convert({ lines, links: content.links, width: content.width, height: content.height });
      return { size, rendered, outcome: { page: n, status: 'completed', kind: 'text', seconds: seconds() } };
    } finally {
      page.cleanup();
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageTimeout()), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (err) {
    // pdf.js cannot cancel a page: a timed-out page finishes in the background and is ignored.
    work.catch(() => undefined);
    const failed = (error_id: string, error_message: string): PageResult => ({
      size,
      outcome: { page: n, status: 'failed', kind: 'text', error_id, error_message, seconds: seconds() },
    });
    if (err instanceof PageTimeout) return failed('page_timeout', `Page ${n} took longer than ${timeoutMs} ms`);
    if (err instanceof ApiError) return failed(err.id, err.message);
    return failed('sys_exception', `Page ${n} could not be read: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}
