import type { Box } from '../../engine/math/types.js';
import { type Group, lineBox, union } from './display-growth.js';
import { EQUATION_NUMBER } from './equation-numbers.js';
import { centredInColumn } from './math-inline.js';
import type { TextLine } from './text-layer.js';

/**
 * multline's rows: amsmath sets the first row flush left (\multlinegap, 10 pt, from the column's
 * left edge), the last flush right (\multlinegap from the right edge, or before the equation
 * number), and the rows between centred. Short rows do not overlap sideways, so the growing of
 * displays (display-growth.ts), which takes a row under the group's width, leaves each row a
 * display of its own, or none where a flat row is not centred (autonum's `a \\ c`, jpsj's
 * `A+B+C+D+E+F \\ = G+H+I+J+K \\ - L+M+…`, set at a stretched leading). Rows stepping down to the
 * right, from the left edge to the right one, with nothing between them, are one display.
 */

/** The first row starts within this many ems of its column's left edge: \multlinegap (1 em at 10 pt) inside a list's indent (2.5 em). */
const FIRST_ROW_EM = 4;
/** The last row ends within this many ems of the column's right edge or of its equation number (\multlinegap, or the number's own gap). */
const LAST_ROW_EM = 1.5;
/**
 * Rows this close (em, ink to ink) are one multline's: rows stand \baselineskip + \jot apart
 * (1.5 em at 10 pt, leaving about an em of white between short rows; jpsj's stretched leading
 * 2.2 em, 1.2 em of white), while two displays are parted by the display skips as well.
 */
const ROW_GAP_EM = 1.5;
/** Each row starts and ends this many ems right of the row above (a staircase), as flush-left, centred and flush-right rows do. */
const STEP_EM = 1;

type Edges = { left: number; right: number };

/**
 * `groups` with each multline's rows joined into one group. `others` are the page's lines in no
 * group (equation numbers among them); `edgeOf` gives a box's column edges; `mathsOnly` says whether
 * a group holds maths alone (no line of prose or of a paragraph).
 */
export function joinMultlineRows(groups: Group[], others: TextLine[], edgeOf: (box: Box) => Edges | undefined, mathsOnly: (g: Group) => boolean): Group[] {
  const byTop = [...groups].sort((a, b) => a.box.y0 - b.box.y0);
  const joined = new Set<Group>();
  const out: Group[] = [];
  for (const first of byTop) {
    if (joined.has(first)) continue;
    const rows = multlineFrom(first, byTop, others, edgeOf, mathsOnly);
    if (rows.length < 2) {
      out.push(first);
      continue;
    }
    for (const r of rows) joined.add(r);
    out.push({ lines: rows.flatMap((r) => r.lines), box: rows.map((r) => r.box).reduce(union), parts: rows.flatMap((r) => r.parts), multline: true });
  }
  return out;
}

/** The rows of the multline whose first row is `first` (flush left), through a flush-right last row; fewer than two when it is none. */
function multlineFrom(first: Group, groups: Group[], others: TextLine[], edgeOf: (box: Box) => Edges | undefined, mathsOnly: (g: Group) => boolean): Group[] {
  const edge = edgeOf(first.box);
  const em = Math.max(...first.lines.map((l) => l.size));
  if (!edge || !mathsOnly(first) || first.box.x0 > edge.left + FIRST_ROW_EM * em || isCentred(first.box, em, edge)) return [];
  const rows = [first];
  for (;;) {
    const last = rows.at(-1)!;
    if (rows.length > 1 && endsAtRight(last.box, em, edge, others)) return rows;
    const next = groups.find((g) => g !== last && g.box.y0 > last.box.y1 - 0.1 * em && edgeOf(g.box) === edge);
    if (!next || !mathsOnly(next) || next.box.y0 - last.box.y1 > ROW_GAP_EM * em) return [];
    if (next.box.x0 < last.box.x0 + STEP_EM * em || next.box.x1 < last.box.x1 + STEP_EM * em) return [];
    if (anythingBetween(last.box, next.box, others)) return [];
    rows.push(next);
  }
}

const isCentred = (box: Box, em: number, edge: Edges) => centredInColumn({ x0: box.x0, x1: box.x1, size: em }, edge);

/** Whether the row ends at the column's right edge, or just before an equation number level with it. */
function endsAtRight(box: Box, em: number, edge: Edges, others: TextLine[]): boolean {
  const number = others.find(
    (l) => EQUATION_NUMBER.test(l.text.trim()) && l.x0 >= box.x1 && (l.top + l.bottom) / 2 > box.y0 && (l.top + l.bottom) / 2 < box.y1,
  );
  const right = number ? number.x0 : edge.right;
  return right - box.x1 <= LAST_ROW_EM * em && !isCentred(box, em, edge);
}

/** A line other than an equation number whose middle lies between the two rows, across their span. */
export function anythingBetween(upper: Box, lower: Box, others: TextLine[]): boolean {
  return others.some((l) => {
    if (EQUATION_NUMBER.test(l.text.trim())) return false;
    const b = lineBox(l);
    const middle = (b.y0 + b.y1) / 2;
    return middle > upper.y1 && middle < lower.y0 && b.x1 > upper.x0 && b.x0 < lower.x1;
  });
}
