import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Box } from '../../engine/math/types.js';
import { FIGURE_DPI, type PixelRegion } from '../../../page/figure-links.js';
import type { GrayImage } from './figure-scan.js';

/**
 * Figure pixels, with Debian's pdftoppm as for scanned pages (scanned-pages.ts): a born-digital
 * figure is rendered straight from the PDF, only its region; a scanned page is rendered whole
 * once, its ink searched for figures and the figures cut out of it with sharp.
 */

const run = promisify(execFile);
const SCALE = FIGURE_DPI / 72;
/** White margin kept around a figure's ink, in points. */
const MARGIN_PT = 2;
const JPEG_QUALITY = 85;
/** A render's own limit when it runs outside a page's clock. */
const RENDER_TIMEOUT_MS = 30_000;

/**
 * Under a page's clock (`signal`) pdftoppm is killed when the page's time runs out, and has no
 * shorter limit of its own: a render slowed by a busy machine must not fail a page that is still
 * within per_page_timeout_seconds.
 */
const limit = (signal: AbortSignal | undefined) => (signal ? { signal } : { timeout: RENDER_TIMEOUT_MS });

/** The figure's box (points), padded and clipped to the page, in pixels at FIGURE_DPI. */
export function pixelRegion(box: Box, pageWidth: number, pageHeight: number): PixelRegion {
  const x0 = Math.max(0, Math.floor((box.x0 - MARGIN_PT) * SCALE));
  const y0 = Math.max(0, Math.floor((box.y0 - MARGIN_PT) * SCALE));
  const x1 = Math.min(Math.floor(pageWidth * SCALE), Math.ceil((box.x1 + MARGIN_PT) * SCALE));
  const y1 = Math.min(Math.floor(pageHeight * SCALE), Math.ceil((box.y1 + MARGIN_PT) * SCALE));
  return { top_left_x: x0, top_left_y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

async function inTempDir<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-figure-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Renders one region of a page of `pdfPath` to JPEG, or to a gray PNG at another resolution (`r` in its pixels) for a reader. */
export function renderRegion(pdfPath: string, page: number, r: PixelRegion, as: { png?: true; dpi?: number; signal?: AbortSignal } = {}): Promise<Buffer> {
  return inTempDir(async (dir) => {
    const area = ['-x', String(r.top_left_x), '-y', String(r.top_left_y), '-W', String(r.width), '-H', String(r.height)];
    const format = as.png ? ['-png', '-gray'] : ['-jpeg', '-jpegopt', `quality=${JPEG_QUALITY}`];
    const args = ['-r', String(as.dpi ?? FIGURE_DPI), '-f', String(page), '-l', String(page), ...area, ...format, '-singlefile', pdfPath, join(dir, 'fig')];
    await run('pdftoppm', args, limit(as.signal));
    return readFile(join(dir, as.png ? 'fig.png' : 'fig.jpg'));
  });
}

/**
 * A whole page rendered at FIGURE_DPI: its pixels as an uncompressed TIFF (to cut crops from;
 * pdftoppm's PNG encoding cost several times the render) and its gray pixels (to find them).
 */
export interface PageImage {
  tiff: Buffer;
  gray: GrayImage;
}

export function renderPage(pdfPath: string, page: number, signal?: AbortSignal): Promise<PageImage> {
  return inTempDir(async (dir) => {
    await run(
      'pdftoppm',
      ['-r', String(FIGURE_DPI), '-f', String(page), '-l', String(page), '-tiff', '-singlefile', pdfPath, join(dir, 'page')],
      limit(signal),
    );
    const tiff = await readFile(join(dir, 'page.tif'));
    const { data, info } = await sharp(tiff).greyscale().raw().toBuffer({ resolveWithObject: true });
    return { tiff, gray: { data, width: info.width, height: info.height, scale: SCALE } };
  });
}

/** Cuts one region out of a rendered page as JPEG (or PNG, for a reader). */
export function cropPage(image: PageImage, r: PixelRegion, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  const width = Math.min(r.width, image.gray.width - r.top_left_x);
  const height = Math.min(r.height, image.gray.height - r.top_left_y);
  const crop = sharp(image.tiff).extract({ left: r.top_left_x, top: r.top_left_y, width, height }).flatten({ background: '#ffffff' });
  return (format === 'png' ? crop.png() : crop.jpeg({ quality: JPEG_QUALITY })).toBuffer();
}
