import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { FormatError, hasTool, runTool } from './convert-tool.js';

/** Resolution of the page images: legible text, an A4 page about 830 × 1170 pixels. */
export const PAGE_IMAGE_DPI = 100;
/** Pages one image holds; 50 A4 pages stay under JPEG's 65,535-pixel height. */
export const MAX_IMAGE_PAGES = 50;
const RENDER_TIMEOUT_MS = 120_000;
const JPEG_QUALITY = 85;

/**
 * The `jpg` and `png` formats: the document's pages rendered with pdftoppm (Debian's poppler, as
 * for scanned pages) and stacked top to bottom in one image, each page centred on white. A
 * document longer than MAX_IMAGE_PAGES has no single image that holds it legibly, and says so.
 */
export async function renderPageImage(pdfPath: string, dir: string, format: 'jpg' | 'png'): Promise<Buffer> {
  if (!hasTool('pdftoppm')) throw new FormatError('unsupported_format', `This build cannot make ${format}: pdftoppm is not installed`);
  const out = join(dir, `page-image-${format}`);
  const run = await runTool('pdftoppm', ['-r', String(PAGE_IMAGE_DPI), '-l', String(MAX_IMAGE_PAGES + 1), '-png', pdfPath, out], {
    cwd: dir,
    timeoutMs: RENDER_TIMEOUT_MS,
  });
  if (run.timedOut) throw new FormatError('sys_exception', `rendering the pages took longer than ${RENDER_TIMEOUT_MS / 1000} s`);
  const names = (await readdir(dir)).filter((n) => n.startsWith(`page-image-${format}-`) && n.endsWith('.png')).sort(byPageNumber);
  if (!names.length)
    throw new FormatError('sys_exception', `pdftoppm rendered no page (exit ${run.code}): ${run.output.trim().split('\n').slice(-1)[0] ?? ''}`);
  if (names.length > MAX_IMAGE_PAGES)
    throw new FormatError('unsupported_format', `${format} holds at most ${MAX_IMAGE_PAGES} pages in one image; this document has more`);
  const pages = await Promise.all(
    names.map(async (n) => {
      const png = await readFile(join(dir, n));
      const { width = 0, height = 0 } = await sharp(png).metadata();
      return { png, width, height };
    }),
  );
  const width = Math.max(...pages.map((p) => p.width));
  const height = pages.reduce((sum, p) => sum + p.height, 0);
  let top = 0;
  const layers = pages.map((p) => {
    const layer = { input: p.png, left: Math.floor((width - p.width) / 2), top };
    top += p.height;
    return layer;
  });
  const canvas = sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite(layers);
  return format === 'jpg' ? canvas.jpeg({ quality: JPEG_QUALITY }).toBuffer() : canvas.png().toBuffer();
}

/** pdftoppm numbers its files page-01.png …; order them by that number, not as text. */
function byPageNumber(a: string, b: string): number {
  const n = (s: string) => Number(/-(\d+)\.png$/.exec(s)?.[1] ?? 0);
  return n(a) - n(b);
}
