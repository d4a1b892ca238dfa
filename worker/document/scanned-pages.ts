import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Job, QueueEvents } from 'bullmq';
import { ApiError } from '../../core/errors.js';
import type { WorkerContext } from '../context.js';
import type { OcrPage } from './pipeline/index.js';
import { punctuationWidth } from '../../page/processors/fullwidth.js';
import type { Glyph } from './pipeline/text-layer.js';
import type { OcrPageResult } from '../../page/model.js';

const run = promisify(execFile);
/** Resolution scanned pages are rendered at for OCR. */
export const SCAN_DPI = 200;
/** Longest a document worker waits for the inference pool to read one page. */
const PAGE_WAIT_MS = 120_000;

type PixelBox = { x: number; y: number; width: number; height: number };


let events: QueueEvents | undefined;

/**
 * Scanned pages travel to the inference pool: the page is rendered (pdftoppm), stored in Folio's
 * own storage, recognised by an inference worker through the 'page' queue, and its lines come
 * back as glyphs in PDF points. The task id is stable per document run and page, so a document
 * redone after a crash reuses pages already read.
 */
export function ocrThroughInferencePool(ctx: WorkerContext, runId: string): (pdfPath: string) => OcrPage {
  events ??= new QueueEvents('pages', { connection: ctx.queueConnection.duplicate(), prefix: ctx.config.FOLIO_QUEUE_PREFIX }).setMaxListeners(0);
  return (pdfPath) => async (page, _w, _h, clock) => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-scan-'));
    const imageKey = `scratch/pages/${runId}/${page}.png`;
    try {
      await run('pdftoppm', ['-r', String(SCAN_DPI), '-f', String(page), '-l', String(page), '-png', '-singlefile', pdfPath, join(dir, 'page')], { timeout: 60_000 });
      await ctx.storage.write(imageKey, await readFile(join(dir, 'page.png')), 'image/png');
      const task = await ctx.queues.enqueue('page', { imageKey, page, options: {} }, { jobId: `page-${runId}-${page}` });
      // The page's limit is for reading it: it stops while the page waits behind others.
      clock?.pause();
      await untilTaken(task, events!);
      clock?.resume();
      const result = (await task.waitUntilFinished(events!, PAGE_WAIT_MS)) as OcrPageResult;
      return linesToGlyphs(result, 72 / SCAN_DPI);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await ctx.storage.delete(imageKey).catch(() => undefined);
    }
  };
}

/** Longest a scanned page waits in the queue for an inference worker to take it. */
const QUEUE_WAIT_MS = 10 * 60_000;
const TAKEN_STATES = new Set(['active', 'completed', 'failed']);

/**
 * Resolves once an inference worker has taken the task (or finished it): on the queue's `active`
 * event, or a state check every second in case the event came before the listener. Gives up with
 * sys_exception after QUEUE_WAIT_MS (no inference worker alive to take it).
 */
async function untilTaken(task: Job, events: QueueEvents): Promise<void> {
  const deadline = Date.now() + QUEUE_WAIT_MS;
  let onActive: ((e: { jobId: string }) => void) | undefined;
  const activated = new Promise<void>((resolve) => {
    onActive = ({ jobId }) => jobId === task.id && resolve();
    events.on('active', onActive);
  });
  try {
    while (!TAKEN_STATES.has(await task.getState())) {
      if (Date.now() > deadline) throw new ApiError('sys_exception', `No inference worker took page ${task.data.page} within ${QUEUE_WAIT_MS / 60_000} minutes`);
      await Promise.race([activated, new Promise((r) => setTimeout(r, 1_000))]);
    }
  } finally {
    events.off('active', onActive!);
  }
}

/**
 * OCR lines (pixels) → glyphs (points). Each word's characters are spread evenly over the word's
 * box and a space spans the gap to the next word, so column gaps (tables, two columns read as one
 * line) keep their width; a line without word boxes is spread evenly over its own box.
 * Punctuation takes the width that suits its line (fullwidth.ts): the text model sometimes reads
 * a bracket in Latin text as its fullwidth form.
 */
export function linesToGlyphs(result: OcrPageResult, scale: number): Glyph[] {
  const glyphs: Glyph[] = [];
  for (const line of result.lines) {
    const size = line.box.height * scale * 0.8;
    const base = (line.box.y + line.box.height * 0.8) * scale;
    const spread = (text: string, x: number, width: number) => {
      const chars = [...punctuationWidth(text, null, line.text)];
      const w = (width * scale) / chars.length;
      chars.forEach((ch, i) => glyphs.push({ ch, x: x * scale + i * w, w, base, size, font: 'ocr', bold: false, mathFont: false }));
    };
    const words = line.words?.filter((w) => w.text);
    if (!words?.length) {
      if (line.text) spread(line.text, line.box.x, line.box.width);
      continue;
    }
    // The first and last words reach the line box's ends: the detector's box holds all the ink,
    // the CTC columns may stop short of it (and ink outside the lines is taken for figures).
    const lineEnd = line.box.x + line.box.width;
    words.forEach((word, i) => {
      const start = i === 0 ? Math.min(word.box.x, line.box.x) : word.box.x;
      const next = words[i + 1];
      const end = next ? word.box.x + word.box.width : Math.max(lineEnd, word.box.x + word.box.width);
      spread(word.text, start, end - start);
      if (next) spread(' ', end, Math.max(1, next.box.x - end));
    });
  }
  return glyphs;
}
