import type { ChemistryOptions } from '../../../core/chemistry.js';
import { ApiError } from '../../../core/errors.js';
import type { PdfPageMath } from '../../engine/math/pdf/index.js';
import type { LinkArea } from './inline.js';
import type { FigureRef } from '../../../page/blocks-model.js';
import { extractFigures, type FigureSink } from './page-figures.js';
import type { RenderedPage } from '../../../page/render/text-layer-page.js';
import type { PdfReader } from './pdf-reader.js';
import { keepLines, type ScannedPage, scannedLines } from './scanned-page.js';
import { glyphsToLines, type Glyph, type TextLine } from './text-layer.js';
import { inMarginNumber, marginLineNumbers } from '../../../page/processors/line-numbers.js';

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
  /** Glyph boxes and rules of a born-digital page; absent for OCR'd pages. */
  math?: PdfPageMath;
  /** Cropped figures, top to bottom; their text lines are no longer in `lines`. */
  figures: FigureRef[];
  /** A scanned page: its image's recognition, assembled as an image is (scanned-page.ts). */
  scanned?: ScannedPage;
}

export interface PageResult {
  outcome: PageOutcome;
  size: { width: number; height: number };
  rendered?: RenderedPage;
}

export const SCANNED_PAGE_MESSAGE = 'scanned page: OCR engine not available in this build';

/**
 * A page's time limit, stopped while the page waits for someone else's capacity (its scan queued
 * behind other pages for an inference worker): the limit is for reading the page, not for the
 * queue. pause/resume may be called in any order and any number of times.
 */
export interface PageClock {
  pause(): void;
  resume(): void;
  /** Milliseconds the page has left. */
  remainingMs(): number;
  /** Aborted when the page's time runs out: tools the page runs (pdftoppm) are killed with it. */
  signal: AbortSignal;
}

/**
 * Share of a page's time kept back from reading its figures as chemistry (at least
 * FIGURE_RESERVE_MIN_MS): OSRA on a slow figure is stopped at the page's deadline less this, so
 * the figure stays a figure and the page completes instead of timing out.
 */
const FIGURE_RESERVE_SHARE = 0.2;
const FIGURE_RESERVE_MIN_MS = 1_000;

/**
 * Reads a scanned page: the recognition of its image (text lines, maths regions, inline maths),
 * as /v3/text reads an image. `clock` is the page's limit, to pause while the page waits in a queue.
 */
export type OcrPage = (page: number, widthPt: number, heightPt: number, clock?: PageClock) => Promise<ScannedPage>;

class PageTimeout extends Error {}

/**
 * Runs page `n` under its clock. pdf.js reads the page in the reader's thread: when the clock runs
 * out, the thread is stopped (CPU freed at once) and the page fails page_timeout.
 */
export async function runPage(
  reader: PdfReader,
  n: number,
  timeoutMs: number,
  convert: (content: PageContentLines) => RenderedPage,
  opts: {
    wantLinks: boolean;
    beforePage?: (page: number) => Promise<void> | void;
    ocrPage?: OcrPage;
    figures?: { pdfPath: string; sink: FigureSink; chemistry?: ChemistryOptions };
  },
): Promise<PageResult> {
  const started = performance.now();
  const seconds = () => Math.round(performance.now() - started) / 1000;
  let size = { width: 0, height: 0 };
  let expire!: () => void;
  let expired = false;
  let reading = false;
  const timeout = new Promise<never>((_, reject) => {
    expire = () => ((expired = true), reject(new PageTimeout()));
  });
  const clock = pageClock(timeoutMs, () => expire());
  const work = (async (): Promise<PageResult> => {
    await opts.beforePage?.(n);
    // Opening the file in a fresh thread (after a stopped page) is not the page's own time.
    clock.pause();
    await reader.ready();
    clock.resume();
    // A page whose clock ran out before reading began must not read beside the next page.
    if (expired) throw new PageTimeout();
    reading = true;
    const content = withoutMarginNumbers(await reader.readPage(n, opts.wantLinks));
    reading = false;
    size = { width: content.width, height: content.height };
    let lines = glyphsToLines(content.glyphs);
    let kind: PageOutcome['kind'] = 'text';
    let scanned: ScannedPage | undefined;
    if (lines.length === 0 && content.hasImages) {
      // No text layer but pictures: a scanned page. Its pixels go to the OCR engine when there is one.
      if (!opts.ocrPage) {
        return {
          size,
          outcome: { page: n, status: 'failed', kind: 'scanned', error_id: 'sys_exception', error_message: SCANNED_PAGE_MESSAGE, seconds: seconds() },
        };
      }
      kind = 'scanned';
      scanned = await opts.ocrPage(n, content.width, content.height, clock);
      lines = scannedLines(scanned);
    }
    let figures: FigureRef[] = [];
    if (opts.figures) {
      const graphics = kind === 'text' ? content.graphics : undefined;
      const chemistryDeadline = Date.now() + clock.remainingMs() - Math.max(FIGURE_RESERVE_MIN_MS, FIGURE_RESERVE_SHARE * timeoutMs);
      ({ figures, lines } = await extractFigures({
        ...opts.figures,
        page: n,
        width: content.width,
        height: content.height,
        lines,
        graphics,
        chemistryDeadline,
        signal: clock.signal,
      }));
    }
    if (lines.length === 0 && figures.length === 0)
      return { size, outcome: { page: n, status: 'completed', kind: kind === 'scanned' ? 'scanned' : 'blank', seconds: seconds() } };
    const math = kind === 'text' ? content.math : undefined;
    const rendered = convert({
      lines,
      links: content.links,
      width: content.width,
      height: content.height,
      math,
      figures,
      ...(scanned ? { scanned: keepLines(scanned, lines) } : {}),
    });
    return { size, rendered, outcome: { page: n, status: 'completed', kind, seconds: seconds() } };
  })();

  try {
    return await Promise.race([work, timeout]);
  } catch (err) {
    work.catch(() => undefined);
    // pdf.js cannot cancel a page: its thread is stopped instead (not when the clock ran out elsewhere).
    if (err instanceof PageTimeout && reading) reader.stop();
    const failed = (error_id: string, error_message: string): PageResult => ({
      size,
      outcome: { page: n, status: 'failed', kind: 'text', error_id, error_message, seconds: seconds() },
    });
    if (err instanceof PageTimeout) return failed('page_timeout', `Page ${n} took longer than ${timeoutMs} ms`);
    if (err instanceof ApiError) return failed(err.id, err.message);
    return failed('sys_exception', `Page ${n} could not be read: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    clock.pause();
  }
}

/** The page without its margin line numbers (page/processors/line-numbers.ts): out of its text layer and its maths glyphs alike. */
function withoutMarginNumbers<C extends { glyphs: Glyph[]; math: PdfPageMath }>(content: C): C {
  const numbers = marginLineNumbers(content.glyphs);
  if (numbers.length === 0) return content;
  const glyphs = content.glyphs.filter((g) => !inMarginNumber(numbers, g.x, g.x + g.w, g.base));
  const math = { ...content.math, glyphs: content.math.glyphs.filter((g) => !inMarginNumber(numbers, g.x0, g.x1, g.baseline)) };
  return { ...content, glyphs, math };
}

/** A limit of `ms` running from now, calling `expired` when it runs out; paused time does not count. */
function pageClock(ms: number, onExpiry: () => void): PageClock {
  const stop = new AbortController();
  const expired = () => {
    stop.abort();
    onExpiry();
  };
  let remaining = ms;
  let since = Date.now();
  let timer: NodeJS.Timeout | undefined = setTimeout(expired, remaining);
  return {
    signal: stop.signal,
    pause() {
      if (!timer) return;
      clearTimeout(timer);
      timer = undefined;
      remaining -= Date.now() - since;
    },
    resume() {
      if (timer) return;
      since = Date.now();
      timer = setTimeout(expired, Math.max(0, remaining));
    },
    remainingMs: () => (timer ? remaining - (Date.now() - since) : remaining),
  };
}
