import { OVERBRACE, RULE, UNDERBRACE, type RowSpan } from '../types.js';
import { centreX, centreY, glyphOf, referenceEm, type Element, type Node, type ParseRow } from './element.js';
import { exactPoints } from './exact-columns.js';
import { LIMIT_OPERATORS, SCRIPT_SHARE } from './metrics.js';

/**
 * Multi-line displays (align, gather, multline, split, eqnarray): a display whose symbols fall
 * into rows separated by clear vertical gaps is read row by row. amsmath opens its rows up by
 * `\jot` and keeps at least `\lineskip + \jot` (0.4 em) of white between their boxes, while the
 * parts of one row (scripts, limits, accents, a fraction's numerator and denominator) sit closer
 * or overlap, and a fraction bar or a big operator holds its parts into its row. Rows whose
 * relations start at one x are aligned there (`a &= b`); a row that starts at that point
 * (`&+ c`) continues the one above; two alignment points with a wide common gap between them are
 * two column pairs (`a &= b & c &= d`). Rows without such a point are `gathered`, unless a
 * born-digital display sets them flush left (every row opening with `&`).
 */

/** Rows are apart when the white between them exceeds this (em); the parts of one row are closer. */
const ROW_GAP_EM = 0.3;
/** A fraction bar holds what lies this close (em) above and below it, a big operator its limits. */
const BAR_GAP_EM = 0.6;
/** Glyphs starting within this (em) of each other are at one alignment point. */
const ALIGN_TOLERANCE_EM = 0.12;
/** Column pairs of `align` are set at least this far (em) apart. */
const PAIR_GAP_EM = 0.8;

const RELATIONS = new Set(
  '= < > \\leq \\geq \\neq \\approx \\equiv \\sim \\simeq \\cong \\propto \\rightarrow \\leftarrow \\Rightarrow \\Leftarrow \\Leftrightarrow \\leftrightarrow \\longrightarrow \\Longrightarrow \\Longleftrightarrow \\mapsto \\subset \\subseteq \\supset \\supseteq \\in \\ll \\gg \\prec \\succ \\preceq \\succeq \\models \\vdash \\leqslant \\geqslant \\lesssim \\gtrsim \\doteq \\triangleq'.split(
    ' ',
  ),
);
/** A continuation row (`&+ c`) starts with one of these at the alignment point. */
const CONTINUATIONS = new Set(['+', '-', RULE, '\\pm', '\\mp', '\\times', '\\cdot']);

/** The display's rows as a `rows` node, with each row's vertical extent, when it has two or more; else null (a one-line formula). */
export function groupDisplayRows(elements: Element[], parseRow: ParseRow, exactPositions = false): { node: Node; spans: RowSpan[] } | null {
  if (elements.length < 2) return null;
  const em = referenceEm(elements);
  const rows = splitDisplayRows(elements, em);
  if (rows.length < 2) return null;
  const relationPoints = alignmentPoints(rows, em, exactPositions);
  // Rows without a relation point, set flush left (`&\int … \\ &\le …`), are aligned at their
  // start, and rows whose relations hang left of the column (`&a \\ \iff &b`) where it starts.
  const start =
    relationPoints.length === 0 && exactPositions ? (flushLeft(rows, em) ? Math.min(...rows.flat().map((e) => e.box.x0)) : hangingColumn(rows, em)) : null;
  const points = start === null ? relationPoints : [start];
  const parsed = rows.map((row) => cutRow(row, points).map((cell) => parseRow(cell)));
  const cells = parsed.map((row) => row.map((cell) => cell.nodes));
  const spans = rows.map((row, i) => {
    // The row's main baseline and size: those of its cells (a fraction's or a limit's parts stand off it).
    const main = parsed[i]!.find((cell) => cell.baseline !== null && cell.em !== null);
    const anchor = relationPoints.length ? row.find((e) => Math.abs(e.box.x0 - relationPoints[0]!) <= ALIGN_TOLERANCE_EM * em) : undefined;
    return {
      y0: Math.min(...row.map((e) => e.box.y0)),
      y1: Math.max(...row.map((e) => e.box.y1)),
      ...(main ? { baseline: main.baseline!, em: main.em! } : {}),
      ...(anchor ? { anchor: { latex: latexOf(anchor), x0: anchor.box.x0 } } : {}),
    };
  });
  return { node: { kind: 'rows', environment: points.length > 0 ? 'aligned' : 'gathered', rows: cells }, spans };
}

/** Elements banded by gaps in their vertical projection; bars and big operators bridge to their parts. */
function splitDisplayRows(elements: Element[], em: number): Element[][] {
  const spans: Array<[number, number]> = elements.map((element) => [element.box.y0, element.box.y1]);
  const fullEm = Math.max(em, ...elements.flatMap((e) => (e.em === null ? [] : [e.em])));
  const operators = elements.filter((e) => LIMIT_OPERATORS.has(glyphOf(e)?.latex ?? ''));
  // A script level with an operator and under its span is that operator's (a display `\int_a`
  // tucks its subscript under its slant), never the limit of an operator in the row below.
  const scriptOfAnother = (e: Element, holder: Element) =>
    operators.some((o) => o !== holder && e.box.x0 < o.box.x1 && e.box.x1 > o.box.x0 && e.box.y0 < o.box.y1 && e.box.y1 > o.box.y0);
  for (const holder of elements) {
    // A horizontal brace holds its body and its label as a bar holds its parts.
    const isBar = glyphOf(holder, RULE) !== null || glyphOf(holder, UNDERBRACE) !== null || glyphOf(holder, OVERBRACE) !== null;
    if (!isBar && !LIMIT_OPERATORS.has(glyphOf(holder)?.latex ?? '')) continue;
    // A big operator's limits are set small: a full-size symbol near it belongs to another row.
    const isPart = (e: Element) => (isBar || e.em === null || e.em < SCRIPT_SHARE * fullEm) && !scriptOfAnother(e, holder);
    const reach = BAR_GAP_EM * em;
    const within = elements.filter((e) => e !== holder && centreX(e.box) > holder.box.x0 && centreX(e.box) < holder.box.x1 && isPart(e));
    const above = Math.max(...within.filter((e) => e.box.y1 <= holder.box.y0).map((e) => e.box.y1));
    const below = Math.min(...within.filter((e) => e.box.y0 >= holder.box.y1).map((e) => e.box.y0));
    if (holder.box.y0 - above < reach) spans.push([above, holder.box.y1]);
    if (below - holder.box.y1 < reach) spans.push([holder.box.y0, below]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const bands: Array<[number, number]> = [];
  for (const [y0, y1] of spans) {
    const last = bands[bands.length - 1];
    if (last && y0 - last[1] <= ROW_GAP_EM * em) last[1] = Math.max(last[1], y1);
    else bands.push([y0, y1]);
  }
  const rows = bands.map(([y0, y1]) => elements.filter((element) => centreY(element.box) >= y0 && centreY(element.box) <= y1)).filter((row) => row.length > 0);
  return withScriptRowsJoined(rows, fullEm);
}

/**
 * A band of script-size glyphs alone is no row: it is what `\underset`, `\overset` or a limit set
 * over or under the row beside it, so it joins the nearer of its neighbours.
 */
function withScriptRowsJoined(rows: Element[][], fullEm: number): Element[][] {
  const scriptOnly = (row: Element[]) => row.every((e) => e.em !== null && e.em < SCRIPT_SHARE * fullEm);
  const out = rows.map((row) => [...row]);
  for (let i = 0; i < out.length && out.length > 1; i++) {
    if (!scriptOnly(out[i]!)) continue;
    const top = Math.min(...out[i]!.map((e) => e.box.y0));
    const bottom = Math.max(...out[i]!.map((e) => e.box.y1));
    const gapAbove = i > 0 ? top - Math.max(...out[i - 1]!.map((e) => e.box.y1)) : Infinity;
    const gapBelow = i < out.length - 1 ? Math.min(...out[i + 1]!.map((e) => e.box.y0)) - bottom : Infinity;
    const into = gapAbove <= gapBelow ? i - 1 : i + 1;
    out[into]!.push(...out[i]!);
    out.splice(i, 1);
    i--;
  }
  return out;
}

const latexOf = (element: Element) => glyphOf(element)?.latex ?? '';

/**
 * The x of each alignment point: where relations of at least two rows start within the
 * tolerance (or of one row, when every other row starts to its right), no row has a symbol
 * across it, and some row has something to its left (so an `&` there separates something). Between two points, a wide gap every row leaves white is the
 * boundary of a column pair, returned as a point too.
 */
function alignmentPoints(rows: Element[][], em: number, exactPositions: boolean): number[] {
  const tolerance = ALIGN_TOLERANCE_EM * em;
  const anchorAt = (row: Element[], x: number) =>
    row.find((e) => Math.abs(e.box.x0 - x) <= tolerance && (RELATIONS.has(latexOf(e)) || CONTINUATIONS.has(latexOf(e))));
  const candidates = rows.flatMap((row) => row.filter((e) => RELATIONS.has(latexOf(e))).map((e) => e.box.x0)).sort((a, b) => a - b);
  const points: number[] = [];
  for (const x of candidates) {
    if (points.some((p) => Math.abs(p - x) <= tolerance)) continue;
    const anchored = rows.filter((row) => anchorAt(row, x) !== undefined);
    const crossed = rows.some((row) => row.some((e) => e.box.x0 < x - tolerance && e.box.x1 > x + tolerance));
    const leftOf = rows.some((row) => row.some((e) => e.box.x1 <= x + tolerance));
    // One relation row and rows that all start to its right with an operator are a split's
    // continuation (`&\quad + e`); gather's rows that happen to start right of a relation are not.
    const continued = anchored.length === 1 && rows.every((row) => anchored.includes(row) || continuesAfter(row, x + tolerance));
    // An operator opens a row's cell only at the first point (split's `&+ c`): a later column pair
    // starts at relations of two rows, not where one row's `-` meets another's `=` (`&= x - y \\ &= x = y`).
    const relations = rows.filter((row) => row.some((e) => Math.abs(e.box.x0 - x) <= tolerance && RELATIONS.has(latexOf(e)))).length;
    const later = points.length > 0 && relations < 2;
    if ((anchored.length >= 2 || continued) && !crossed && leftOf && !later) points.push(x);
  }
  // Born-digital glyphs stand where TeX put them: an alignment point holds exactly.
  const held = exactPositions ? exactPoints(rows, points, em, (x) => rows.map((row) => anchorAt(row, x))) : points;
  const withPairs = [...held];
  for (let i = 0; i + 1 < held.length; i++) {
    const gap = commonGap(rows, held[i]!, held[i + 1]!);
    if (gap && gap[1] - gap[0] >= PAIR_GAP_EM * em) withPairs.push((gap[0] + gap[1]) / 2);
  }
  return withPairs.sort((a, b) => a - b);
}

/**
 * Rows whose ink starts this close (em: unlike glyphs' side bearings, a display integral's slant)
 * and ends further apart than RAGGED_END_EM are set flush left; centred rows (gather) start as far
 * apart as they end.
 */
const FLUSH_START_EM = 0.25;
const RAGGED_END_EM = 0.5;

/** Binary operators that can open an aligned cell (`&+ c`, `&- d`). */
const OPENING_OPERATORS = new Set(['+', '-', '\\pm', '\\mp', '\\times', '\\cdot']);

/**
 * Where a row's cell starts: its first glyph's ink, less the space TeX sets before it when it is a
 * relation (a thick space, 5 mu) or a binary operator (a medium space, 4 mu), since amsmath opens
 * each aligned cell with `{}` (`&\Longleftrightarrow H` starts 5/18 em right of `&H`).
 */
function cellStart(row: Element[], em: number): number {
  const first = row.reduce((a, b) => (b.box.x0 < a.box.x0 ? b : a));
  const latex = latexOf(first);
  const space = RELATIONS.has(latex) ? 5 / 18 : OPENING_OPERATORS.has(latex) ? 4 / 18 : 0;
  return first.box.x0 - space * em;
}

/**
 * Rows whose cells all start at one x and do not all end together: aligned at their start, as an
 * `align` whose rows each open with `&` sets them.
 */
function flushLeft(rows: Element[][], em: number): boolean {
  const starts = rows.map((row) => cellStart(row, em));
  const ends = rows.map((row) => Math.max(...row.map((e) => e.box.x1)));
  return Math.max(...starts) - Math.min(...starts) <= FLUSH_START_EM * em && Math.max(...ends) - Math.min(...ends) > RAGGED_END_EM * em;
}

/**
 * The x where rows' cells start when some rows open with a relation standing left of that x
 * (`&a = b \\ \iff &c = d`: amsmath ends the left column with the relation, `\iff` with its
 * thick space) and every other row starts there; null when they do not. Only a row's relation
 * may stand left of the column, and its cell must start within the glyphs' exact tolerance.
 */
function hangingColumn(rows: Element[][], em: number): number | null {
  const starts: number[] = [];
  let hanging = 0;
  for (const row of rows) {
    const ordered = [...row].sort((a, b) => a.box.x0 - b.box.x0);
    const first = ordered[0]!;
    const rest = ordered.slice(1);
    if (RELATIONS.has(latexOf(first)) && rest.length > 0 && rest.every((e) => e.box.x0 >= first.box.x1)) {
      hanging++;
      starts.push(rest[0]!.box.x0);
    } else starts.push(first.box.x0);
  }
  if (hanging === 0 || hanging === rows.length) return null;
  const x = Math.min(...starts);
  return Math.max(...starts) - x <= ALIGN_TOLERANCE_EM * em ? x - ALIGN_TOLERANCE_EM * em : null;
}

/** A row that starts right of `x` with a binary operator (`+ e`, `\times f`): the continuation of the row above. */
function continuesAfter(row: Element[], x: number): boolean {
  const first = row.reduce((a, b) => (b.box.x0 < a.box.x0 ? b : a));
  return first.box.x0 > x && CONTINUATIONS.has(latexOf(first));
}

/** The widest x interval between `from` and `to` that no row has ink in, if any. */
function commonGap(rows: Element[][], from: number, to: number): [number, number] | null {
  const inks = rows
    .flat()
    .map((e) => [Math.max(from, e.box.x0), Math.min(to, e.box.x1)] as [number, number])
    .filter(([x0, x1]) => x1 > x0)
    .sort((a, b) => a[0] - b[0]);
  let best: [number, number] | null = null;
  let reached = from;
  for (const [x0, x1] of [...inks, [to, to] as [number, number]]) {
    if (x0 > reached && (!best || x0 - reached > best[1] - best[0])) best = [reached, x0];
    reached = Math.max(reached, x1);
  }
  return best;
}

/** A row's cells between consecutive points (elements placed by their centres). */
function cutRow(row: Element[], points: number[]): Element[][] {
  const cells: Element[][] = Array.from({ length: points.length + 1 }, () => []);
  for (const element of row) {
    const index = points.filter((p) => centreX(element.box) > p).length;
    cells[index]!.push(element);
  }
  return cells;
}
