import type { Stroke } from '../../worker/engine/math/types.js';

/**
 * Pen strokes as an SVG drawing: each stroke a round-capped line of `penPx` pixels through its
 * points (a lone point a dot), scaled by `pxPerUnit`, in black on white with a margin of two pen widths.
 */
export function strokesSvg(strokes: readonly Stroke[], pxPerUnit: number, penPx: number): string {
  const xs = strokes.flatMap((s) => s.x);
  const ys = strokes.flatMap((s) => s.y);
  const margin = 2 * penPx;
  const x0 = Math.min(...xs) * pxPerUnit - margin;
  const y0 = Math.min(...ys) * pxPerUnit - margin;
  const width = Math.ceil(Math.max(...xs) * pxPerUnit - x0 + margin);
  const height = Math.ceil(Math.max(...ys) * pxPerUnit - y0 + margin);
  const point = (s: Stroke, i: number) => `${(s.x[i] * pxPerUnit - x0).toFixed(2)} ${(s.y[i] * pxPerUnit - y0).toFixed(2)}`;
  const paths = strokes
    .filter((s) => s.x.length)
    .map((s) => {
      const rest = s.x.length > 1 ? s.x.slice(1).map((_, i) => `L${point(s, i + 1)}`) : [`l0.01 0`];
      return `<path d="M${point(s, 0)} ${rest.join(' ')}"/>`;
    });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g fill="none" stroke="black" stroke-width="${penPx.toFixed(2)}" stroke-linecap="round" stroke-linejoin="round">${paths.join('')}</g></svg>`;
}
