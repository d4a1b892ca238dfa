import { RULE } from '../types.js';
import {
  centreX,
  centreY,
  glyphOf,
  height,
  median,
  overlap,
  referenceEm,
  structureElement,
  unionBox,
  type Element,
  type Glyph,
  type Node,
  type ParseRow,
} from './element.js';
import { mergeIntervals } from './intervals.js';
import { LIMIT_OPERATORS, SCRIPT_SHARE } from './metrics.js';

/** A delimiter is tall (encloses a grid or a fraction) above this many em. */
const TALL_EM = 1.8;
/** The two strokes of a grown `\|` stand this close (em); an image reads each as a `|`. */
const DOUBLE_BAR_GAP_EM = 0.3;
/**
 * Bars taller than this (em) are a grown `\\|`'s strokes when they stand that close: `\\left\\|` around
 * a fraction is about 1.8 em tall, a text-size `\\|` (which the classifier reads whole) about 1.
 */
const DOUBLE_BAR_EM = 1.3;
/** Rules and big operators hold what sits just above and below them (numerator, limits) in their row. */
const bridgesRows = (element: Element) => glyphOf(element, RULE) !== null || LIMIT_OPERATORS.has(glyphOf(element)?.latex ?? '');

/**
 * Rows of a grid are separated by more than this (em). Rows of cells holding fractions nearly
 * touch (about 0.18 em), so the gaps inside a row must be smaller still: accents sit about 0.08 em
 * above their symbol, and a rule's or a big operator's parts are bridged to it.
 */
const ROW_GAP_EM = 0.12;
/**
 * A fraction bar has its numerator and denominator within this (em; display fractions leave up to
 * 0.5 em), while a minus sign in one row is farther (0.7 em or more) from the row above or below.
 */
const BAR_GAP_EM = 0.6;
/**
 * Rows taller than their array struts (a `\dfrac` in each row of `cases`) are stacked with no
 * white between them: their ink may touch or overlap by a hair (about 0.01 em). Such rows are
 * told apart when they overlap by less than this (em) and each is at least TALL_ROW_EM high.
 */
const TOUCHING_ROWS_EM = 0.05;
const TALL_ROW_EM = 1.2;
/** Columns are separated by more than this (em): `&` spacing is about 1 em, spacing inside a cell at most 0.3. */
const COLUMN_GAP_EM = 0.55;
/** …and in em of their own size between script-size cells (smallmatrix: a thick space, 0.4 of the script's em). */
const SCRIPT_COLUMN_GAP_EM = 0.3;

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '\\{': '\\}', '|': '|', '\\|': '\\|', '\\langle': '\\rangle' };
const ENVIRONMENTS: Record<string, string> = { '(': 'pmatrix', '[': 'bmatrix', '\\{': 'Bmatrix', '|': 'vmatrix', '\\|': 'Vmatrix' };

/**
 * Finds matrices and cases: a tall opening delimiter, the matching closing one of about the same
 * span, and between them a grid of at least two rows (pmatrix, bmatrix, vmatrix, Vmatrix,
 * Bmatrix; a two-row column set as far apart as a fraction's parts is `\binom`); a tall left
 * brace with rows and no closing brace is `cases`. Rows come from gaps in
 * the vertical projection (fraction bars bridge to their numerator and denominator), columns from
 * wide gaps in the horizontal projection of all rows. Runs before everything else so that a
 * fraction in one cell cannot take the cell above as its numerator.
 */
export function groupMatrices(elements: Element[], parseRow: ParseRow): Element[] {
  const em = referenceEm(elements);
  let pool = joinDoubleBars(elements, em);
  const openers = pool
    .filter((element) => (glyphOf(element)?.latex ?? '') in CLOSERS && (height(element.box) > TALL_EM * em || glyphOf(element, '(') !== null))
    .sort((a, b) => a.box.x0 - b.box.x0);
  // A bar that closed a pair (`\\|x\\|+\\|y\\|`) opens nothing, whether or not the pair held a grid.
  const closingBars = new Set<Element>();
  for (const open of openers) {
    if (!pool.includes(open) || closingBars.has(open)) continue;
    const openGlyph = glyphOf(open) as Glyph;
    const close = matchingCloser(pool, open, CLOSERS[openGlyph.latex]);
    if (close && CLOSERS[openGlyph.latex] === openGlyph.latex) closingBars.add(close);
    if (!close && openGlyph.latex !== '\\{') continue;
    const right = close ? close.box.x0 : Number.POSITIVE_INFINITY;
    const content = pool.filter(
      (element) =>
        element !== open &&
        element !== close &&
        centreX(element.box) > open.box.x1 &&
        centreX(element.box) < right &&
        centreY(element.box) > open.box.y0 &&
        centreY(element.box) < open.box.y1,
    );
    // A row of dots across the columns (`\hdotsfor`) covers their gaps: the columns are the other rows'.
    const dotted = new Set(splitRows(content, em).filter(isDotRow).flat());
    // Parentheses of the text's size hold a grid only as `\tbinom` and smallmatrix do: rows set
    // smaller, whose columns stand a thick space apart (no space around their operators).
    const small = height(open.box) <= TALL_EM * em;
    if (small && !(close && scriptSized(content, Math.max(em, height(open.box))))) continue;
    const columnGap = small ? SCRIPT_COLUMN_GAP_EM * (median(content.flatMap((e) => (e.em === null ? [] : [e.em]))) ?? em) : COLUMN_GAP_EM * em;
    const split = splitColumns(dotted.size < content.length ? content.filter((e) => !dotted.has(e)) : content, columnGap);
    const rows = gridRows(content, split, em);
    if (rows.length < 2) continue;
    // cases has two columns, value and condition: a wide space inside the condition (`,\quad i = 1`) is not a third.
    const shared: Array<[number, number]> = !close && split.length > 2 ? [split[0]!, [split[1]![0], split.at(-1)![1]]] : split;
    const columnsOfRows = close ? rowColumns(rows, shared, em) : rows.map(() => shared);
    const columns = columnsOfRows[0]!;
    const cells = rows.map((row, index) =>
      columnsOfRows[index]!.map(([x0, x1]) => parseRow(row.filter((e) => centreX(e.box) >= x0 && centreX(e.box) <= x1)).nodes),
    );
    const closeGlyph = close ? (glyphOf(close) as Glyph) : null;
    const environment = !closeGlyph
      ? 'cases'
      : small
        ? rows.length === 2 && columns.length === 1
          ? 'binom'
          : 'smallmatrix'
        : isBinomial(open, rows, columns, em)
          ? 'binom'
          : (ENVIRONMENTS[openGlyph.latex] ?? 'matrix');
    const node: Node = { kind: 'matrix', environment, open: openGlyph, close: closeGlyph, rows: cells };
    const claimed = new Set([open, ...content, ...(close ? [close] : [])]);
    pool = pool.filter((element) => !claimed.has(element));
    pool.push(structureElement(node, unionBox([...claimed].map((element) => element.box)), null, centreY(open.box)));
  }
  return pool;
}

/**
 * Whether a grid's cells are set in script size: every glyph whose size is known is below the
 * script share of `em` (the text's em, or a text-size parenthesis' height, about an em: an image's
 * em of a formula that is mostly `\tbinom` is the script's), its operators told no size.
 */
function scriptSized(content: Element[], em: number): boolean {
  const known = content.filter((e) => e.em !== null);
  return known.length > 0 && known.every((e) => e.em! < SCRIPT_SHARE * em);
}

/** Baselines of `\binom`'s two parts are about 1.36 em apart (a fraction's shifts); a pmatrix's rows 1.2 em (1.24 at 11 pt). */
const BINOMIAL_ROW_DISTANCE_EM = 1.28;
/**
 * …and about 0.57 of the height of TeX's fraction delimiters (2.39 em in a display, rounded up to
 * the next parenthesis of cmex: 2.4 em, or 3.0 where cmex is not scaled with the text), against a
 * pmatrix's 0.50 or less of parentheses grown to cover its rows. An image's em is a guess (a 300 dpi
 * letter's reads about 7 % over, putting `\binom{n}{k}`'s rows at 1.26 em); its parentheses are not.
 */
const BINOMIAL_ROW_SHARE = 0.534;

/**
 * A two-row, one-column grid in parentheses is `\binom` when its rows sit as far apart as a
 * fraction's parts rather than on matrix struts, by either measure, judged on each row's own line
 * (its letters and digits, scripts left out: `n_{1}`'s subscript pulled the median down).
 */
function isBinomial(open: Element, rows: Element[][], columns: Array<[number, number]>, em: number): boolean {
  if (glyphOf(open, '(') === null || rows.length !== 2 || columns.length !== 1) return false;
  const baselines = rows.map((row) => {
    const largest = Math.max(0, ...row.map((e) => e.em ?? 0));
    return median(row.flatMap((e) => (e.em === null || e.em < SCRIPT_SHARE * largest ? [] : [e.baselineFor(e.em)])));
  });
  if (baselines[0] === null || baselines[1] === null) return false;
  const distance = baselines[1] - baselines[0];
  return distance > BINOMIAL_ROW_DISTANCE_EM * em || distance > BINOMIAL_ROW_SHARE * height(open.box);
}

function matchingCloser(pool: Element[], open: Element, latex: string): Element | null {
  return (
    pool
      // About the opener's size: a small `)` inside a cell (`(\hat{a})_+`) does not close the grid.
      .filter(
        (element) => element !== open && glyphOf(element)?.latex === latex && element.box.x0 > open.box.x1 && height(element.box) > 0.8 * height(open.box),
      )
      .filter((element) => overlap(element.box.y0, element.box.y1, open.box.y0, open.box.y1) > 0.7 * Math.min(height(element.box), height(open.box)))
      .sort((a, b) => a.box.x0 - b.box.x0)[0] ?? null
  );
}

/** Groups elements into rows by gaps (more than `joinGap`) in their vertical projection. */
function splitRows(content: Element[], em: number, joinGap = ROW_GAP_EM * em): Element[][] {
  const spans = content.map((element) => ({ y0: element.box.y0, y1: element.box.y1 }));
  for (const bar of content.filter(bridgesRows)) {
    const within = content.filter((e) => e !== bar && centreX(e.box) > bar.box.x0 && centreX(e.box) < bar.box.x1);
    const above = Math.max(...within.filter((e) => e.box.y1 <= bar.box.y0).map((e) => e.box.y1));
    const below = Math.min(...within.filter((e) => e.box.y0 >= bar.box.y1).map((e) => e.box.y0));
    if (bar.box.y0 - above < BAR_GAP_EM * em) spans.push({ y0: above, y1: bar.box.y1 });
    if (below - bar.box.y1 < BAR_GAP_EM * em) spans.push({ y0: bar.box.y0, y1: below });
  }
  const bands = mergeIntervals(
    spans.map((span) => [span.y0, span.y1]),
    joinGap,
  );
  return bands.map(([y0, y1]) => content.filter((element) => centreY(element.box) >= y0 && centreY(element.box) <= y1));
}

/**
 * Rows of the grid: from the vertical projection of all cells; where rows too tall for their struts
 * touch, from bands that only touch, each a tall row; or, where a tall cell of one row
 * reaches a tall cell of the next in another column (a subscript above a hat, `(\hat a)_+` over
 * `(\hat a)_-`), from each column's own projection when every column splits into the same number
 * of rows and those rows follow one another down the page.
 */
function gridRows(content: Element[], columns: Array<[number, number]>, em: number): Element[][] {
  const rows = splitRows(content, em);
  if (rows.length >= 2) return rows;
  const touching = splitRows(content, em, -TOUCHING_ROWS_EM * em);
  if (touching.length >= 2 && touching.every((row) => height(unionBox(row.map((e) => e.box))) >= TALL_ROW_EM * em)) return touching;
  if (columns.length < 2) return rows;
  const perColumn = columns.map(([x0, x1]) =>
    splitRows(
      content.filter((e) => centreX(e.box) >= x0 && centreX(e.box) <= x1),
      em,
    ),
  );
  const count = perColumn[0]!.length;
  if (count < 2 || perColumn.some((bands) => bands.length !== count)) return rows;
  const joined = Array.from({ length: count }, (_, index) => perColumn.flatMap((bands) => bands[index]!));
  const ordered = joined.every((row, index) => {
    const next = joined[index + 1];
    return !next || Math.max(...row.map((e) => centreY(e.box))) < Math.min(...next.map((e) => centreY(e.box)));
  });
  return ordered ? joined : rows;
}

/**
 * Each row's column extents: the grid's shared ones, or, where tight column spacing (eqnarray's
 * small \arraycolsep) lets a wide cell of one row cover the gap of another so that the shared
 * projection has one column, each row's own wide gaps when every row splits into the same number.
 */
function rowColumns(rows: Element[][], shared: Array<[number, number]>, em: number): Array<Array<[number, number]>> {
  if (shared.length > 1) return rows.map(() => shared);
  const own = rows.map((row) => splitColumns(row, COLUMN_GAP_EM * em));
  const count = own[0]!.length;
  return count > 1 && own.every((columns) => columns.length === count) ? own : rows.map(() => shared);
}

const DOTS = new Set(['.', '\\ldots', '\\cdots', '\\cdot']);
/** A band of three or more dots and nothing else. */
const isDotRow = (row: Element[]) => row.length >= 3 && row.every((e) => DOTS.has(glyphOf(e)?.latex ?? ''));

/** Column extents from gaps in the horizontal projection of every row. */
function splitColumns(content: Element[], gap: number): Array<[number, number]> {
  return mergeIntervals(
    content.map((element) => [element.box.x0, element.box.x1]),
    gap,
  );
}

/**
 * Two tall bars side by side over the same rows, as close as a grown `\\|`'s strokes, become that
 * one delimiter (Vmatrix). A PDF draws it as one glyph; an image's strokes are two blobs, each a `|`.
 */
function joinDoubleBars(elements: Element[], em: number): Element[] {
  const bars = elements.filter((e) => glyphOf(e, '|') !== null && height(e.box) > DOUBLE_BAR_EM * em).sort((a, b) => a.box.x0 - b.box.x0);
  let pool = elements;
  for (let i = 0; i + 1 < bars.length; i++) {
    const [left, right] = [bars[i]!, bars[i + 1]!];
    const gap = right.box.x0 - left.box.x1;
    const shared = overlap(left.box.y0, left.box.y1, right.box.y0, right.box.y1);
    if (gap < 0 || gap > DOUBLE_BAR_GAP_EM * em || shared < 0.9 * Math.max(height(left.box), height(right.box))) continue;
    const [a, b] = [glyphOf(left) as Glyph, glyphOf(right) as Glyph];
    const glyph: Glyph = { latex: '\\|', box: unionBox([left.box, right.box]), confidence: a.confidence * b.confidence };
    const joined: Element = { ...left, box: glyph.box, node: { kind: 'glyph', glyph, latex: glyph.latex } };
    pool = [...pool.filter((e) => e !== left && e !== right), joined];
    i++;
  }
  return pool;
}
