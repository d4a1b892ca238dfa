import type { Glyph } from './text-layer.js';

/**
 * The gutter of a two-column page seen in the glyphs, before there are lines: an empty vertical
 * strip near the middle that many baseline rows jump across and almost none has ink in. LaTeX's
 * default columnsep (10 pt) is narrower than the gap that splits a row into fragments, so without
 * it the left and right columns' lines would be read as one.
 */

/** Half the strip's width, in points: the gap must be at least this wide on each side of x. */
const HALF_STRIP_PT = 2;
/** Rows that must jump the strip, and the share of the rows reaching it that may have ink in it (titles, wide figures' captions). */
const MIN_BRIDGING_ROWS = 5;
const MAX_CROSSING_SHARE = 0.15;

export function gutterStrip(rows: Glyph[][]): number | undefined {
  const ink = rows.map((row) => row.filter((g) => !/\s/.test(g.ch)).map((g) => [g.x, g.x + g.w] as const)).filter((spans) => spans.length > 0);
  if (ink.length < MIN_BRIDGING_ROWS) return undefined;
  const left = Math.min(...ink.flatMap((s) => s.map(([a]) => a)));
  const right = Math.max(...ink.flatMap((s) => s.map(([, b]) => b)));
  let best: { x: number; bridging: number } | undefined;
  for (let x = left + 0.3 * (right - left); x <= left + 0.7 * (right - left); x += 1) {
    let bridging = 0;
    let crossing = 0;
    for (const spans of ink) {
      if (spans.some(([a, b]) => a < x + HALF_STRIP_PT && b > x - HALF_STRIP_PT)) crossing++;
      else if (spans.some(([, b]) => b <= x) && spans.some(([a]) => a >= x)) bridging++;
    }
    if (bridging < MIN_BRIDGING_ROWS || crossing > MAX_CROSSING_SHARE * (bridging + crossing)) continue;
    if (!best || bridging > best.bridging) best = { x, bridging };
  }
  return best?.x;
}
