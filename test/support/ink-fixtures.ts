import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { strokesSvg } from '../../models/training/ink-render.js';
import type { Stroke } from '../../worker/engine/math/types.js';

interface Drawing {
  label: string;
  strokes: [number, number][][];
}

/**
 * A line of real handwriting as an image: the held-out Detexify drawings of
 * test/fixtures/detexify-ink.json (ODbL 1.0, see its $comment) side by side, each `heightPx` high,
 * drawn with a round pen `penPx` wide, rasterised by sharp (librsvg, not the resvg the ink-kind
 * model was trained with) on white.
 */
export async function handwrittenLinePng(heightPx = 60, penPx = 3): Promise<Buffer> {
  const { drawings } = JSON.parse(await readFile(new URL('../fixtures/detexify-ink.json', import.meta.url), 'utf8')) as { drawings: Drawing[] };
  const line: Stroke[] = [];
  let x = 0;
  for (const d of drawings) {
    const xs = d.strokes.flatMap((s) => s.map((p) => p[0]));
    const ys = d.strokes.flatMap((s) => s.map((p) => p[1]));
    const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
    const k = heightPx / Math.max(Math.max(...ys) - y0, Math.max(...xs) - x0, 1e-6);
    line.push(...d.strokes.map((s) => ({ x: s.map((p) => x + (p[0] - x0) * k), y: s.map((p) => (p[1] - y0) * k) })));
    x += (Math.max(...xs) - x0) * k + heightPx / 3;
  }
  const margin = Math.round(heightPx / 2);
  return sharp(Buffer.from(strokesSvg(line, 1, penPx)))
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
}
