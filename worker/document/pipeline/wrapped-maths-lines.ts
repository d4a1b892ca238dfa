import type { TextLine } from './text-layer.js';

/**
 * A line of maths alone that carries on a paragraph. TeX breaks a paragraph's line before an
 * inline formula too wide for what is left of it, so the formula starts the next line: at the
 * paragraph's left edge, one leading under the line above (thucoursework's `另外
 * $H(Y|Z)=H(Y)\Rightarrow I(Y;Z)=0\Rightarrow H(Z|Y)=H(Z)$`, which had seeded a display and taken
 * the align* under it as its rows). A display stands a display skip lower (at least half an em
 * more) and is centred or indented.
 */

/** A paragraph's next line stands this many ems more than its leading under the line above, at most (a display, half an em more at the least). */
const LEADING_SLACK_EM = 0.3;
/** Lines starting this close (pt) start at one x: the paragraph's left edge. */
const SAME_START_PT = 0.5;

/**
 * The lines of maths (`isMaths`) that carry on the line of prose (`isProse`) above them: starting
 * where it starts or at the column's left edge (`leftEdge`), one leading (`leadingEm`, ems of the
 * line's size) under it.
 */
export function wrappedMathsLines(
  lines: TextLine[],
  isProse: (line: TextLine) => boolean,
  leadingEm: number,
  leftEdge: (line: TextLine) => number | undefined,
  isMaths: (line: TextLine) => boolean,
): Set<TextLine> {
  const wrapped = new Set<TextLine>();
  for (const line of lines) {
    if (!isMaths(line)) continue;
    const above = lineAbove(line, lines);
    if (!above || !isProse(above)) continue;
    if (line.base - above.base > (leadingEm + LEADING_SLACK_EM) * line.size) continue;
    const edge = leftEdge(line);
    const atEdge = edge !== undefined && Math.abs(line.x0 - edge) <= SAME_START_PT;
    if (atEdge || Math.abs(line.x0 - above.x0) <= SAME_START_PT) wrapped.add(line);
  }
  return wrapped;
}

/** The nearest line above `line` that overlaps it sideways, its baseline over `line`'s top. */
function lineAbove(line: TextLine, lines: TextLine[]): TextLine | undefined {
  let best: TextLine | undefined;
  for (const l of lines) {
    if (l === line || l.base > line.top || l.x1 <= line.x0 || l.x0 >= line.x1) continue;
    if (!best || l.base > best.base) best = l;
  }
  return best;
}
