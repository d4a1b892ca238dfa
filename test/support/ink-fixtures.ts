import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

interface Drawing {
  label: string;
  strokes: [number, number][][];
}

/**
 * A line of real handwriting as an image: the held-out Detexify drawings of
 * test/fixtures/detexify-ink.json (ODbL 1.0, see its $comment) side by side, each `heightPx` high,
 * drawn with a round pen `penPx` wide in dark ink on white, rasterised by sharp (librsvg, not the
 * resvg the ink-kind model was trained with).
 */
export async function handwrittenLinePng(heightPx = 60, penPx = 3): Promise<Buffer> {
  const { drawings } = JSON.parse(await readFile(new URL('../fixtures/detexify-ink.json', import.meta.url), 'utf8')) as { drawings: Drawing[] };
  const margin = heightPx / 2;
  let x = margin;
  const paths: string[] = [];
  for (const d of drawings) {
    const xs = d.strokes.flatMap((s) => s.map((p) => p[0]));
    const ys = d.strokes.flatMap((s) => s.map((p) => p[1]));
    const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
    const k = heightPx / Math.max(Math.max(...ys) - y0, Math.max(...xs) - x0, 1e-6);
    for (const s of d.strokes) {
      const pts = s.map((p) => `${(x + (p[0] - x0) * k).toFixed(1)} ${(margin + (p[1] - y0) * k).toFixed(1)}`);
      paths.push(
        `<path d="M${pts[0]} ${
          pts.length > 1
            ? pts
                .slice(1)
                .map((p) => `L${p}`)
                .join(' ')
            : 'l0.1 0'
        }"/>`,
      );
    }
    x += (Math.max(...xs) - x0) * k + heightPx / 3;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(x + margin)}" height="${Math.ceil(heightPx + 2 * margin)}"><rect width="100%" height="100%" fill="white"/><g fill="none" stroke="#1a1a40" stroke-width="${penPx}" stroke-linecap="round" stroke-linejoin="round">${paths.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
