import type { Glyph } from '../glyph-lines.js';

/** Measures the layout rules share (blocks.ts, columns.ts, tables.ts here; text-layer-blocks.ts). */

/** The upper median (the middle value, or the higher of the two middle ones); 0 for none. */
export function upperMedian(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Words of a line's text: runs of non-space characters. */
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The font size carrying the most glyphs (rounded to a quarter point). */
export function dominantSize(glyphs: Glyph[]): number {
  const counts = new Map<number, number>();
  for (const g of glyphs) {
    const k = Math.round(g.size * 4) / 4;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = -1;
  for (const [k, c] of counts) if (c > bestCount || (c === bestCount && k > best)) [best, bestCount] = [k, c];
  return best;
}
