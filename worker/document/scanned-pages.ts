import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Job, QueueEvents } from 'bullmq';
import sharp from 'sharp';
import { ApiError } from '../../core/errors.js';
import type { WorkerContext } from '../context.js';
import type { OcrPage } from './pipeline/index.js';
import type { PageRecognition } from '../../page/model.js';

const run = promisify(execFile);
/** Resolution scanned pages are rendered at for OCR. */
export const SCAN_DPI = 200;
/** Longest a document worker waits for the inference pool to read one page. */
const PAGE_WAIT_MS = 120_000;

type PixelBox = { x: number; y: number; width: number; height: number };

let events: QueueEvents | undefined;

/**
 * Scanned pages travel to the inference pool: the page is rendered (pdftoppm), stored in Folio's
 * own storage and recognised by an inference worker through the 'page' queue exactly as a
 * /v3/text image is (maths included); pipeline/scanned-page.ts assembles it as /v3/text does. The task id is stable per document run and page, so a document
 * redone after a crash reuses pages already read.
 */
export function ocrThroughInferencePool(ctx: WorkerContext, runId: string): (pdfPath: string) => OcrPage {
  events ??= new QueueEvents('pages', { connection: ctx.queueConnection.duplicate(), prefix: ctx.config.FOLIO_QUEUE_PREFIX }).setMaxListeners(0);
  return (pdfPath) => async (page, widthPt, heightPt, clock) => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-scan-'));
    const imageKey = `scratch/pages/${runId}/${page}.png`;
    try {
      const { path, scale } = await pageImage(pdfPath, page, widthPt, heightPt, dir, clock?.signal);
      await ctx.storage.write(imageKey, createReadStream(path), 'image/png');
      // Read as /v3/text reads an image: text, maths regions and inline maths; no threshold applies, so no second read to calibrate.
      const task = await ctx.queues.enqueue('page', { imageKey, page, options: { math: 'auto', calibrate: false } }, { jobId: `page-${runId}-${page}` });
      // The page's limit is for reading it: it stops while the page waits behind others.
      clock?.pause();
      await untilTaken(task, events!);
      clock?.resume();
      const read = (await task.waitUntilFinished(events!, PAGE_WAIT_MS)) as PageRecognition;
      return { read, scale };
    } finally {
      await rm(dir, { recursive: true, force: true });
      await ctx.storage.delete(imageKey).catch(() => undefined);
    }
  };
}

/**
 * The page's image as the inference worker reads it, as a PNG file in `dir` (stored from there,
 * never held in memory). A scan is one picture covering the page: its own pixels are read as they
 * are (no resampling, at the scanner's resolution), exactly the image a user would send to
 * /v3/text. Any other page is rendered by pdftoppm at SCAN_DPI. The tools write uncompressed TIFF
 * and sharp encodes the PNG at PNG_LEVEL: their own PNG encoders took 0.4–0.6 CPU s a page, ten
 * times the extraction or render itself. The tools stop with the page's clock.
 */
async function pageImage(
  pdfPath: string,
  page: number,
  widthPt: number,
  heightPt: number,
  dir: string,
  signal?: AbortSignal,
): Promise<{ path: string; scale: number }> {
  const range = ['-f', String(page), '-l', String(page)];
  const limit = signal ? { signal } : { timeout: 60_000 };
  const path = join(dir, 'page.png');
  const { stdout } = await run('pdfimages', ['-list', ...range, pdfPath], limit);
  if (stdout.trim().split('\n').length === 3) {
    await run('pdfimages', ['-tiff', ...range, pdfPath, join(dir, 'img')], limit);
    const tiff = join(dir, 'img-000.tif');
    const meta = await sharp(tiff)
      .metadata()
      .catch(() => null);
    // Only a picture that fills the page upright (its aspect the page's) is the page.
    if (meta?.width && meta.height && Math.abs(meta.width / meta.height - widthPt / heightPt) < 0.01 * (widthPt / heightPt)) {
      await asPng(tiff, path);
      return { path, scale: widthPt / meta.width };
    }
  }
  await run('pdftoppm', ['-r', String(SCAN_DPI), ...range, '-tiff', '-singlefile', pdfPath, join(dir, 'page')], limit);
  await asPng(join(dir, 'page.tif'), path);
  return { path, scale: 72 / SCAN_DPI };
}

/** zlib level of the stored page PNG: level 1 took a third of the CPU of the default for a 30 % larger file. */
const PNG_LEVEL = 1;

async function asPng(tiff: string, png: string): Promise<void> {
  await sharp(tiff).png({ compressionLevel: PNG_LEVEL }).toFile(png);
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
      if (Date.now() > deadline)
        throw new ApiError('sys_exception', `No inference worker took page ${task.data.page} within ${QUEUE_WAIT_MS / 60_000} minutes`);
      await Promise.race([activated, new Promise((r) => setTimeout(r, 1_000))]);
    }
  } finally {
    events.off('active', onActive!);
  }
}
