import type { TextLine } from '../glyph-lines.js';
import { columnSections, type Section } from './columns.js';

/**
 * Where a born-digital page's gutter is, from its glyph lines (PDF points): the evidence the one
 * reading-order processor (columns.ts `columnSections`) reads on born-digital pages. A gutter is
 * a vertical band in the middle of the page that few lines cross, with enough lines on each side
 * and a right column that shares a left edge. Text-layer lines have exact extents, so the band
 * can be narrow and searched across the page's own width.
 */

/** Minimum width of the empty band, in points. */
const MIN_GUTTER_PT = 8;
/** Each side needs at least this many lines before the page counts as two columns. */
const MIN_LINES_PER_SIDE = 3;

/** Finds the x of the gutter, or undefined for a single-column page. */
export function findGutter(pageLines: TextLine[], pageWidth: number): number | undefined {
  // Lines without a visible character (a picture font's circle pieces drawing a box's corners) are drawing, not a column.
  const lines = pageLines.filter((l) => /[^\p{Cc}\s]/u.test(l.text));
  if (lines.length < 2 * MIN_LINES_PER_SIDE) return undefined;
  let best: { x: number; score: number } | undefined;
  for (let x = pageWidth * 0.3; x <= pageWidth * 0.7; x += 2) {
    const crossing = lines.filter((l) => l.x0 < x + MIN_GUTTER_PT / 2 && l.x1 > x - MIN_GUTTER_PT / 2).length;
    if (crossing > Math.max(2, lines.length * 0.1)) continue;
    const left = lines.filter((l) => l.x1 <= x - MIN_GUTTER_PT / 2).length;
    const right = lines.filter((l) => l.x0 >= x + MIN_GUTTER_PT / 2).length;
    if (left < MIN_LINES_PER_SIDE || right < MIN_LINES_PER_SIDE) continue;
    // Prefer the fewest crossings, then balanced sides, then the band's middle.
    const score = -crossing * 1000 + Math.min(left, right);
    if (!best || score > best.score) best = { x, score };
    else if (score === best.score && x - best.x <= 2.01) best = { x: (best.x + x) / 2, score };
  }
  return best && rightColumnIsAligned(lines, best.x) ? best.x : undefined;
}

/** Guards against a ragged single column whose long lines end left of the band by chance. */
function rightColumnIsAligned(lines: TextLine[], gutter: number): boolean {
  const right = lines.filter((l) => l.x0 >= gutter);
  const rightStarts = new Set(right.map((l) => Math.round(l.x0 / 4)));
  // A right column shares a left edge; scattered right-hand fragments (page numbers) do not.
  return rightStarts.size <= Math.max(2, right.length / 2);
}

/** Orders the page's lines into sections and columns. */
export function readingOrder(lines: TextLine[], pageWidth: number): Section<TextLine>[] {
  const byTop = [...lines].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  return columnSections(byTop, (l) => l, findGutter(byTop, pageWidth));
}
