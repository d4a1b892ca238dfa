import { RULE } from '../types.js';
import { centreX, centreY, glyphOf, height, referenceEm, unionBox, structureElement, type Element, type Node, type ParseRow } from './element.js';
import { isAccentMark } from './accents.js';
import { mergeIntervals } from './intervals.js';
import { LIMIT_OPERATORS, TALL, verticalClass, SCRIPT_SHARE } from './metrics.js';

/**
 * Grids without delimiters: amsmath's `matrix` and `smallmatrix`, a bare `array`. An array sets
 * its rows on struts, so their baselines stand `\baselineskip` apart (1.20–1.24 em at 10–12 pt;
 * smallmatrix 1.08 em of its script size), closer than the rows of align or gather (`\jot` more:
 * 1.46–1.52 em) and than a display fraction's numerator and denominator (1.36 em); and its
 * cells leave white columns through every row (2`\arraycolsep`, an em; smallmatrix 0.4 of its
 * em), wider than any space inside a cell. A PDF's glyphs know their baselines and sizes exactly;
 * an image's come from each box through its glyph's vertical class, a few per cent off, so they are
 * matched within looser tolerances (IMAGE), the pitch still telling a grid's rows from gathered
 * ones (1.2 against 1.5 em). Nothing in a grid is larger than its rows (a base between two scripts is no
 * grid of its scripts), and no rule, big operator or tall delimiter stands in it. A grid inside a tall delimiter is left to groupMatrices (pmatrix, cases …).
 */

/**
 * How closely glyphs of one row agree (baselines within `baseline` em, sizes within `size` of each
 * other), and how far apart consecutive rows' baselines stand, in em of their own size (`pitch`).
 */
interface Tolerance {
  baseline: number;
  size: number;
  pitch: readonly [number, number];
  /** A delimiter taller than this (em) beside the grid encloses it: groupMatrices reads it (a `\bigl(` is 1.2 em, a display `\binom`'s 2.4). */
  tallDelimiter: number;
}
/**
 * A PDF's rows: array pitch 1.20–1.24 em, smallmatrix 0.9–1.08, a display `\genfrac` without a rule
 * 1.36 (one column: written as a matrix, which prints the same); gathered rows stand 1.46 or more.
 */
const PDF: Tolerance = { baseline: 0.08, size: 0.05, pitch: [0.85, 1.4], tallDelimiter: 1.8 };
/** An image's sizes and baselines come from its boxes: a 150 dpi script letter's em is up to a tenth over, a 300 dpi binomial's rows' a third. */
const IMAGE: Tolerance = { baseline: 0.15, size: 0.25, pitch: [0.75, 1.3], tallDelimiter: 1.4 };
/** White between columns, in em of the rows' size: text-size cells (the narrowest is a thick space around a relation, 0.28 em)… */
const COLUMN_GAP_EM = 0.6;
/** …and script-size cells (smallmatrix), where TeX puts no space around operators. */
const SCRIPT_COLUMN_GAP_EM = 0.3;
/** Rows at least this share of the formula's largest size are text size: a single column of them is a grid. */
const TEXT_SIZE_SHARE = 0.9;
/** A glyph taller than this (em of the rows) is a big operator or a grown delimiter, never a cell's symbol. */
const BIG_GLYPH_EM = 1.5;
/** A big operator this close (em) above or below the grid holds its pieces as limits or scripts. */
const OPERATOR_REACH_EM = 0.6;
const OPENERS = new Set(['(', '[', '\\{', '\\langle']);
const CLOSERS = new Set([')', ']', '\\}', '\\rangle']);
/** Bars open and close. */
const DELIMITERS = new Set([...OPENERS, ...CLOSERS, '|', '\\|']);
/** A delimiter this close (em) beside the grid is its own. */
const DELIMITER_REACH_EM = 0.9;

interface GridRow {
  baseline: number;
  em: number;
  members: Element[];
  x0: number;
  x1: number;
}

export function groupBareGrids(elements: Element[], parseRow: ParseRow, exact: boolean): Element[] {
  const tolerance = exact ? PDF : IMAGE;
  const largest = Math.max(0, ...elements.flatMap((e) => (e.em === null ? [] : [e.em])));
  let pool = elements;
  for (const rows of gridChains(baselineRows(elements, tolerance), tolerance)) {
    const grid = readGrid(pool, rows, largest, parseRow, tolerance);
    if (!grid) continue;
    pool = pool.filter((element) => !grid.members.has(element));
    pool.push(grid.element);
  }
  return pool;
}

/**
 * Leaf glyphs that sit on a baseline (not rules, accents, big operators or growing delimiters), clustered
 * by baseline and size, and cut where a tall glyph stands between them: grids set side by side
 * (`\begin{matrix}…\end{matrix}\quad\begin{pmatrix}…`) share their baselines.
 */
function baselineRows(elements: Element[], tolerance: Tolerance): GridRow[] {
  const seated = elements.filter((e) => {
    const glyph = glyphOf(e);
    return (
      glyph !== null &&
      e.em !== null &&
      glyph.latex !== RULE &&
      !LIMIT_OPERATORS.has(glyph.latex) &&
      !isAccentMark(glyph.latex) &&
      verticalClass(glyph.latex) !== TALL
    );
  });
  const walls = elements.filter((e) => !seated.includes(e) && height(e.box) > BIG_GLYPH_EM * (e.em ?? referenceEm(elements))).map((e) => centreX(e.box));
  const rows: GridRow[] = [];
  for (const element of seated.sort((a, b) => a.baselineFor(a.em!) - b.baselineFor(b.em!))) {
    const em = element.em!;
    const baseline = element.baselineFor(em);
    const between = (row: GridRow) => walls.some((x) => (x > row.x1 && x < element.box.x0) || (x < row.x0 && x > element.box.x1));
    const row = rows.find((r) => Math.abs(r.baseline - baseline) <= tolerance.baseline * em && Math.abs(r.em - em) <= tolerance.size * em && !between(r));
    if (row) {
      row.members.push(element);
      row.x0 = Math.min(row.x0, element.box.x0);
      row.x1 = Math.max(row.x1, element.box.x1);
    } else rows.push({ baseline, em, members: [element], x0: element.box.x0, x1: element.box.x1 });
  }
  return rows;
}

/** Runs of two or more rows of one size, each the next one's neighbour at array pitch and overlapping it across. */
function gridChains(rows: GridRow[], tolerance: Tolerance): GridRow[][] {
  const next = (row: GridRow) =>
    rows.find((below) => {
      const pitch = (below.baseline - row.baseline) / row.em;
      return (
        Math.abs(below.em - row.em) <= tolerance.size * row.em &&
        pitch >= tolerance.pitch[0] &&
        pitch <= tolerance.pitch[1] &&
        below.x0 < row.x1 &&
        below.x1 > row.x0
      );
    });
  const followed = new Set(rows.flatMap((row) => next(row) ?? []));
  const chains: GridRow[][] = [];
  for (const first of rows.filter((row) => !followed.has(row))) {
    const chain = [first];
    for (let row = next(first); row; row = next(row)) chain.push(row);
    if (chain.length >= 2) chains.push(chain);
  }
  return chains;
}

/**
 * The grid spanned by the rows: across, as wide as its first and last rows (a middle row may
 * share its baseline with what stands beside the grid, `A =`); down, from the first row's
 * ascenders to the last row's descenders. Null when it is not a grid: two or more columns, or one
 * of text-size rows.
 */
function readGrid(
  pool: Element[],
  rows: GridRow[],
  largest: number,
  parseRow: ParseRow,
  tolerance: Tolerance,
): { element: Element; members: Set<Element> } | null {
  const em = rows[0]!.em;
  const [first, last] = [rows[0]!, rows.at(-1)!];
  const x0 = Math.min(first.x0, last.x0) - 0.2 * em;
  const x1 = Math.max(first.x1, last.x1) + 0.2 * em;
  const y0 = first.baseline - 1.05 * em;
  const y1 = last.baseline + 0.45 * em;
  const members = pool.filter((e) => centreX(e.box) > x0 && centreX(e.box) < x1 && centreY(e.box) > y0 && centreY(e.box) < y1);
  const big = (e: Element) => height(e.box) > BIG_GLYPH_EM * em;
  const foreign = (e: Element) =>
    !glyphOf(e) || glyphOf(e, RULE) || LIMIT_OPERATORS.has(glyphOf(e)!.latex) || big(e) || (e.em ?? 0) > (1 + 2 * tolerance.size) * em;
  if (members.some(foreign)) return null;
  // Parts of fractions whose bars cross the rows (`\frac{p(x,y)}{q(x,y)}`: the two y's) are no grid.
  const crossing = (e: Element) =>
    glyphOf(e, RULE) !== null && e.box.x0 < x0 + 0.3 * em && e.box.x1 > x1 - 0.3 * em && centreY(e.box) > y0 && centreY(e.box) < y1;
  if (pool.some(crossing)) return null;
  // Spanned as far as the rows' ink reaches (an image's em, and so the rows' reach, is a guess).
  const ink = unionBox(rows.flatMap((row) => row.members.map((e) => e.box)));
  if (enclosed(pool, x0, x1, Math.max(y0, ink.y0), Math.min(y1, ink.y1), em, tolerance.tallDelimiter)) return null;
  // The limits or scripts of big operators in the rows above and below (`\int_0^2 \int_{x^2}^{2x}`) are no grid.
  if (
    pool.some(
      (e) => big(e) && e.box.x1 > x0 + 0.4 * em && e.box.x0 < x1 - 0.4 * em && e.box.y1 > y0 - OPERATOR_REACH_EM * em && e.box.y0 < y1 + OPERATOR_REACH_EM * em,
    )
  )
    return null;
  const cells = rows.map((row) => members.filter((e) => nearestRow(rows, e) === row));
  const gap = (em <= SCRIPT_SHARE * largest ? SCRIPT_COLUMN_GAP_EM : COLUMN_GAP_EM) * em;
  const columns = mergeIntervals(
    members.map((e) => [e.box.x0, e.box.x1]),
    gap,
  );
  // One column of text-size rows is a grid too (`\begin{matrix}n\\k\end{matrix}`), when nothing
  // but its rows stands in it; a script-size column is a base's superscript over its subscript.
  const seated = (e: Element) => rows.some((row) => row.members.includes(e));
  if (columns.length < 2 && (em < TEXT_SIZE_SHARE * largest || !members.every(seated))) return null;
  const inColumn =
    ([c0, c1]: [number, number]) =>
    (e: Element) =>
      centreX(e.box) >= c0 && centreX(e.box) <= c1;
  // Every cell holds something: scattered pieces that happen to share two baselines leave holes.
  if (cells.some((row) => columns.some((column) => !row.some(inColumn(column))))) return null;
  // A column of relations alone is an equation array (`rcl`), rows of equations rather than a grid.
  if (columns.some((column) => members.filter(inColumn(column)).every((e) => verticalClass(glyphOf(e)!.latex).anchor === 'axis'))) return null;
  const node: Node = {
    kind: 'matrix',
    environment: em <= SCRIPT_SHARE * largest ? 'smallmatrix' : 'matrix',
    open: null,
    close: null,
    rows: cells.map((row) => columns.map((column) => parseRow(row.filter(inColumn(column))).nodes)),
  };
  const box = unionBox(members.map((e) => e.box));
  return { element: structureElement(node, box, null, (box.y0 + box.y1) / 2), members: new Set(members) };
}

const nearestRow = (rows: GridRow[], element: Element) =>
  rows.reduce((best, row) =>
    Math.abs(row.baseline - 0.3 * row.em - centreY(element.box)) < Math.abs(best.baseline - 0.3 * best.em - centreY(element.box)) ? row : best,
  );

/**
 * Whether a tall delimiter opens just left of the grid (or closes just right of it) and spans it:
 * pmatrix, vmatrix, cases. The delimiters of amsmath's matrices stand a side bearing away, an
 * array's `\left(` an \arraycolsep more; the next grid's opener a \quad to the right opens nothing here.
 */
function enclosed(pool: Element[], x0: number, x1: number, y0: number, y1: number, em: number, tall: number): boolean {
  return pool.some((e) => {
    const glyph = glyphOf(e);
    if (!glyph || !DELIMITERS.has(glyph.latex) || height(e.box) < tall * em) return false;
    const opens = !CLOSERS.has(glyph.latex) && e.box.x1 <= x0 + 0.2 * em && x0 - e.box.x1 < DELIMITER_REACH_EM * em;
    const closes = !OPENERS.has(glyph.latex) && e.box.x0 >= x1 - 0.2 * em && e.box.x0 - x1 < DELIMITER_REACH_EM * em;
    return (opens || closes) && e.box.y0 <= y0 + 0.3 * em && e.box.y1 >= y1 - 0.3 * em;
  });
}
