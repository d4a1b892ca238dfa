import type { TextLine } from '../glyph-lines.js';

/**
 * Reading order of a born-digital page's glyph lines (PDF points), one or two columns. A gutter is a vertical band in the middle of the
 * page that no line crosses, with enough lines on each side. Lines crossing it (titles, wide
 * figures' captions) are full-width and cut the page into sections; each section reads its left
 * column top to bottom, then its right column. Three or more columns are not detected.
 */

/** Minimum width of the empty band, in points. */
const MIN_GUTTER_PT = 8;
/** Each side needs at least this many lines before the page counts as two columns. */
const MIN_LINES_PER_SIDE = 3;

export interface Section {
  /** Lines in reading order; a column break inside is marked by `columnStarts`. */
  lines: TextLine[];
  /** Indexes into `lines` where a new column begins (the right column of a section). */
  columnStarts: Set<number>;
}

/** Finds the x of the gutter, or undefined for a single-column page. */
export function findGutter(lines: TextLine[], pageWidth: number): number | undefined {
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
export function readingOrder(lines: TextLine[], pageWidth: number): Section[] {
  const byTop = [...lines].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const gutter = findGutter(byTop, pageWidth);
  if (gutter === undefined) return [{ lines: byTop, columnStarts: new Set() }];
  const sections: Section[] = [];
  let left: TextLine[] = [];
  let right: TextLine[] = [];
  const flush = () => {
    if (!left.length && !right.length) return;
    sections.push({ lines: [...left, ...right], columnStarts: left.length && right.length ? new Set([left.length]) : new Set() });
    left = [];
    right = [];
  };
  for (const line of byTop) {
    if (line.x1 <= gutter) left.push(line);
    else if (line.x0 >= gutter) right.push(line);
    else {
      flush();
      sections.push({ lines: [line], columnStarts: new Set() });
    }
  }
  flush();
  return sections;
}
