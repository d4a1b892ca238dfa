import type { Box } from '../../engine/math/types.js';
import { dominantSize, makeLine, type TextLine } from './text-layer.js';

/**
 * Inline formulas the text layer cut out of their line. A tall inline formula (`\dfrac`, a
 * `\displaystyle` sum with limits, `\binom`, an inline matrix) leaves its numerator, limits or rows
 * as lines of their own, which look like the rows of a display. What tells them apart is the prose
 * around them: a display stands on its own rows, while an inline formula sits between words of a
 * paragraph line — a line that starts at its column's left edge (or a paragraph indent from it) or
 * runs to its right edge, level with the formula's middle.
 */

/** A paragraph's line starts within this many ems of its column's left edge (a first-line indent is 1–1.5 em)… */
const INDENT_EM = 2;
/** …or ends within this many ems of its right edge (a justified or full line). */
const RAGGED_EM = 0.5;
/** Words beside a formula within this many ems belong to its line: the text layer cuts lines at 1.2 em. */
const BESIDE_EM = 1.5;

/** A line sharing this much of the lower one's height with a formula is level with it. */
const LEVEL_SHARE = 0.5;

/** The white between two boxes side by side (0 when they overlap in x). */
export const sideGap = (a: Box, b: Box) => Math.max(a.x0 - b.x1, b.x0 - a.x1, 0);

/** A line whose middle is this many ems from its column's is centred in it. */
const CENTRED_EM = 1;

/** Lines that start (or end) within this many points of each other mark a column's edge. */
const EDGE_TOLERANCE_PT = 0.5;
const EDGE_LINES = 3;
/** An edge that more than this share of the column's body-text lines cross by over an em is no edge: short lines that happen to end together (a list's `n : N` items, a fraction's digits). */
const CROSSED_SHARE = 0.25;

/** A line's start (or end), its font size, and whether the line reaches the column's other side (a paragraph's full line). */
type EdgePoint = { x: number; size: number; full?: boolean };

/**
 * The outermost of `points` (the least x, or with `sign` -1 the greatest) where EDGE_LINES of them
 * meet, one of them in the body text's size, and that the body text does not cross: a page number,
 * a margin note in a smaller size, or short lines ending together inside the text block are no
 * edge. Else the outermost of all.
 */
function sharedEdge(points: EdgePoint[], sign: 1 | -1, bodySize: number): number {
  const sorted = points.map((p) => ({ ...p, x: sign * p.x })).sort((a, b) => a.x - b.x);
  const body = sorted.filter((p) => Math.abs(p.size - bodySize) < 0.5);
  for (let i = 0; i + EDGE_LINES - 1 < sorted.length; i++) {
    const x = sorted[i]!.x;
    const meeting = sorted.slice(i, i + EDGE_LINES);
    if (meeting.at(-1)!.x - x > EDGE_TOLERANCE_PT || !meeting.some((p) => Math.abs(p.size - bodySize) < 0.5 && p.full !== false)) continue;
    // Candidates further in are crossed by more lines still.
    if (body.filter((p) => p.x < x - p.size).length > CROSSED_SHARE * body.length) break;
    return sign * x;
  }
  return sign * sorted[0]!.x;
}

type Edges = { left: number; right: number };

/**
 * The left and right edges of each line's column (the lines on its side of the gutter), undefined
 * for a column without lines: the outermost ink, or with `shared` where lines start and end together.
 */
export function columnEdges(lines: TextLine[], gutter: number | undefined, shared: boolean): (line: Pick<TextLine, 'x0' | 'x1'>) => Edges | undefined {
  const rightColumn = (l: Pick<TextLine, 'x0'>) => gutter !== undefined && l.x0 >= gutter;
  const edges = [false, true].map((right) => {
    const column = lines.filter((l) => rightColumn(l) === right && (right || gutter === undefined || l.x1 <= gutter));
    if (!column.length) return undefined;
    if (!shared) return { left: Math.min(...column.map((l) => l.x0)), right: Math.max(...column.map((l) => l.x1)) };
    const body = dominantSize(column.flatMap((l) => l.glyphs.filter((g) => /\S/u.test(g.ch))));
    // The left edge is where a paragraph's full lines start: one of the lines meeting there runs to
    // the column's far right (headings set out in a wide left margin start together further out).
    const farRight = Math.max(...column.map((l) => l.x1));
    const left = sharedEdge(
      column.map((l) => ({ x: l.x0, size: l.size, full: l.x1 >= farRight - INDENT_EM * l.size })),
      1,
      body,
    );
    // The right edge is where a paragraph's full lines end: one of the lines meeting there starts at the left edge.
    const ends = column.map((l) => ({ x: l.x1, size: l.size, full: l.x0 <= left + INDENT_EM * l.size }));
    return { left, right: sharedEdge(ends, -1, body) };
  });
  return (l) => edges[rightColumn(l) ? 1 : 0];
}

/** True when the line stops short of its column's right edge and its middle is within CENTRED_EM of the column's. */
export function centredInColumn(l: Pick<TextLine, 'x0' | 'x1' | 'size'>, edge: Edges): boolean {
  const short = l.x1 < edge.right - RAGGED_EM * l.size;
  return short && Math.abs(l.x0 + l.x1 - edge.left - edge.right) / 2 < CENTRED_EM * l.size;
}

/**
 * The prose lines that reach their column's edge: lines of a paragraph, never part of a display.
 * Of `formulas` (maths set in a text font, or maths with a few words), a line centred in its
 * column short of its right edge is a display's, however near the left edge a long one starts.
 */
export function paragraphLines(lines: TextLine[], prose: Set<TextLine>, gutter: number | undefined, formulas = new Set<TextLine>()): Set<TextLine> {
  const edgeOf = columnEdges(lines, gutter, false);
  const textEdgeOf = columnEdges(lines, gutter, true);
  return new Set(
    [...prose].filter((l) => {
      const edge = edgeOf(l);
      if (edge === undefined) return false;
      if (formulas.has(l) && centredInColumn(l, textEdgeOf(l)!)) return false;
      return l.x0 <= edge.left + INDENT_EM * l.size || l.x1 >= edge.right - RAGGED_EM * l.size;
    }),
  );
}

/**
 * The lines level with the middle of `box` and beside it, chained sideways (the words on both
 * sides of a formula, which the text layer may have cut into two lines); empty when none of them
 * is one of `paragraph` — then the formula is not inside a paragraph's line.
 */
export function lineAround(box: Box, em: number, lines: TextLine[], ink: (l: TextLine) => Box, paragraph: Set<TextLine>): TextLine[] {
  const around: TextLine[] = [];
  let reach = box;
  for (let grown = true; grown;) {
    grown = false;
    for (const l of lines) {
      if (around.includes(l)) continue;
      const b = ink(l);
      const middle = (b.y0 + b.y1) / 2;
      // Level: its middle inside the formula's band, or half the lower of the two shared (a
      // denominator's root, whose glyph the text layer sets on a line of its own, is the band).
      const shared = Math.min(b.y1, box.y1) - Math.max(b.y0, box.y0);
      const inBand = (middle > box.y0 && middle < box.y1) || (middle > reach.y0 && middle < reach.y1);
      const level = inBand || shared >= LEVEL_SHARE * Math.min(b.y1 - b.y0, box.y1 - box.y0);
      if (!level || sideGap(b, reach) > BESIDE_EM * em) continue;
      around.push(l);
      reach = { x0: Math.min(reach.x0, b.x0), x1: Math.max(reach.x1, b.x1), y0: Math.min(reach.y0, b.y0), y1: Math.max(reach.y1, b.y1) };
      grown = true;
    }
  }
  return around.some((l) => paragraph.has(l)) ? around : [];
}

/**
 * `lines` (formulas and the words around them) by the paragraph line each belongs to: the one whose
 * maths axis is nearest its middle. A formula between two lines of a paragraph (its limits close
 * to the next line's) has parts of each.
 */
export function byHomeLine(lines: TextLine[], paragraph: Set<TextLine>): Map<TextLine, TextLine[]> {
  const axis = (l: TextLine) => l.base - 0.25 * l.size;
  // The words left and right of a formula are two lines of the text layer on one baseline: one home.
  const homes = lines.filter((l, i) => paragraph.has(l) && !lines.slice(0, i).some((h) => paragraph.has(h) && Math.abs(h.base - l.base) < 0.3 * l.size));
  const out = new Map(homes.map((h) => [h, [] as TextLine[]]));
  for (const l of lines) {
    const middle = (l.top + l.bottom) / 2;
    const home = homes.reduce((a, b) => (Math.abs(axis(b) - middle) < Math.abs(axis(a) - middle) ? b : a));
    out.get(home)!.push(l);
  }
  return out;
}

/**
 * One line of the formula's lines and the words around it, left to right. It keeps the baseline
 * and size of the prose (`home`). The glyphs of `formula` lines are marked as maths (an upright
 * `+` of a numerator included), so the inline renderer reads them as one run from its region.
 */
export function mergeIntoLine(home: TextLine, lines: TextLine[], formula: Set<TextLine>): TextLine {
  const glyphs = lines.flatMap((l) => (formula.has(l) ? l.glyphs.map((g) => ({ ...g, mathFont: true })) : l.glyphs)).sort((a, b) => a.x - b.x);
  const merged = makeLine(glyphs) ?? home;
  return { ...merged, base: home.base, size: home.size, bold: home.bold };
}
