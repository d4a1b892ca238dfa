import { upperMedian } from './line-measures.js';

/**
 * Margin line numbers (LaTeX's lineno, a journal's review copy): page furniture, like a running
 * header. Left on the page they join the lines beside them, become a table's first column and
 * split displays, so they are taken out of the page's glyphs before lines are built. Pure geometry,
 * in whatever unit the page measures (PDF points on born-digital pages).
 *
 * A margin line number is a run of digits alone at the outer end of its row (nothing beyond it,
 * a clear gap to the text), set smaller than the page's text, outside the text block (beyond where
 * most rows start or end), in a column of at least MIN_COLUMN such numbers sharing one edge whose
 * values grow down the page. A table's first column sits inside the text block at the table's
 * size; an equation number has its parentheses; a page number is alone.
 */

/** What the finder reads of a glyph. */
export interface NumberGlyph {
  ch: string;
  x: number;
  w: number;
  base: number;
  size: number;
}

/** Where one margin line number is printed. */
export interface MarginNumber {
  x0: number;
  x1: number;
  base: number;
  size: number;
}

/** Numbers in one margin column before it counts as line numbering. */
export const MIN_COLUMN = 4;
/** A digit this close (in ems) to the previous one on its baseline continues the number. */
const DIGIT_GAP_EM = 0.25;
/** The gap to the row's text, in ems: wider than a word space. */
const CLEAR_GAP_EM = 0.5;
/** A row glyph within this many ems of a number's baseline shares its row (scripts included). */
const ROW_EM = 0.6;
/** Line numbers are set smaller than the page's text (lineno's \tiny; a table's numbers are the table's size, and inside the text block). */
const SMALLER = 0.95;
/** The numbers of one column share their left or right edge within this many points. */
const EDGE_TOLERANCE = 1.5;

interface Token extends MarginNumber {
  value: number;
  glyphs: Set<NumberGlyph>;
}

/** The page's margin line numbers: empty unless a column of them is found in a margin. */
export function marginLineNumbers(glyphs: readonly NumberGlyph[]): MarginNumber[] {
  const ink = glyphs.filter((g) => g.ch.trim() !== '');
  const tokens = digitRuns(ink);
  if (tokens.length < MIN_COLUMN) return [];
  const inToken = new Set(tokens.flatMap((t) => [...t.glyphs]));
  const { left: bodyLeft, right: bodyRight, leading } = bodyRows(ink.filter((g) => !inToken.has(g)));
  const bodySize = upperMedian(ink.map((g) => g.size));
  // Only small numbers outside the text block are looked at closely (a page of tables has many digits).
  const outside = tokens.filter((t) => t.size < SMALLER * bodySize && (t.x1 < bodyLeft || t.x0 > bodyRight));
  if (outside.length < MIN_COLUMN) return [];
  const alone = outside.flatMap((t) => {
    const row = ink.filter((g) => !t.glyphs.has(g) && Math.abs(g.base - t.base) < ROW_EM * t.size);
    // A digit run with a letter or sign glued to it (`2x`, `(3)`, `1.`) is no line number.
    const glued = row.some((g) => Math.abs(g.base - t.base) < 0.3 * t.size && g.x < t.x1 + DIGIT_GAP_EM * t.size && g.x + g.w > t.x0 - DIGIT_GAP_EM * t.size);
    return glued ? [] : [{ t, row }];
  });
  const gap = (t: Token) => CLEAR_GAP_EM * t.size;
  const left = alone.filter(({ t, row }) => t.x1 < bodyLeft && row.every((g) => g.x >= t.x1 + gap(t))).map(({ t }) => t);
  const right = alone.filter(({ t, row }) => t.x0 > bodyRight && row.every((g) => g.x + g.w <= t.x0 - gap(t))).map(({ t }) => t);
  return [...numberColumn(left, leading), ...numberColumn(right, leading)].map(({ x0, x1, base, size }) => ({ x0, x1, base, size }));
}

/** Whether a glyph (of the text layer or the maths reader) is ink of one of these numbers. */
export function inMarginNumber(numbers: readonly MarginNumber[], x0: number, x1: number, base: number): boolean {
  const centre = (x0 + x1) / 2;
  return numbers.some((n) => centre >= n.x0 && centre <= n.x1 && Math.abs(base - n.base) < 0.3 * n.size);
}

/** Runs of adjacent digits on one baseline. */
function digitRuns(ink: NumberGlyph[]): Token[] {
  const digits = ink.filter((g) => /^\d$/.test(g.ch)).sort((a, b) => a.base - b.base || a.x - b.x);
  const tokens: Token[] = [];
  let current: NumberGlyph[] = [];
  const close = () => {
    if (current.length === 0) return;
    const first = current[0]!;
    const last = current.at(-1)!;
    const value = Number(current.map((g) => g.ch).join(''));
    tokens.push({ x0: first.x, x1: last.x + last.w, base: first.base, size: first.size, value, glyphs: new Set(current) });
    current = [];
  };
  for (const g of digits) {
    const prev = current.at(-1);
    if (prev && (Math.abs(g.base - prev.base) > 0.1 * g.size || g.x - (prev.x + prev.w) > DIGIT_GAP_EM * g.size)) close();
    current.push(g);
  }
  close();
  return tokens;
}

/** Where most rows of the page start and end (the text block's edges: the median row's, scripts left out), and their leading (the median baseline step). */
function bodyRows(ink: NumberGlyph[]): { left: number; right: number; leading: number } {
  const body = upperMedian(ink.map((g) => g.size));
  const rows = new Map<number, { start: number; end: number }>();
  for (const g of ink) {
    if (Math.abs(g.size - body) > 0.15 * body) continue;
    const key = Math.round(g.base);
    const row = rows.get(key);
    if (!row) rows.set(key, { start: g.x, end: g.x + g.w });
    else {
      row.start = Math.min(row.start, g.x);
      row.end = Math.max(row.end, g.x + g.w);
    }
  }
  const list = [...rows.values()];
  if (list.length === 0) return { left: -Infinity, right: Infinity, leading: 0 };
  const bases = [...rows.keys()].sort((a, b) => a - b);
  const leading = upperMedian(bases.slice(1).map((b, i) => b - bases[i]!));
  return { left: upperMedian(list.map((r) => r.start)), right: upperMedian(list.map((r) => r.end)), leading };
}

/**
 * The largest set of numbers sharing a left or right edge whose values grow down the page, if it is
 * a column: by no more than the lines between them (every line numbered, or every fifth). A table
 * of contents' page numbers jump further.
 */
function numberColumn(candidates: Token[], leading: number): Token[] {
  const counts = (upper: Token, lower: Token) =>
    lower.value > upper.value && (leading <= 0 || lower.value - upper.value <= Math.round((lower.base - upper.base) / leading) + 1);
  let best: Token[] = [];
  for (const edge of ['x0', 'x1'] as const) {
    for (const anchor of candidates) {
      const column = candidates.filter((t) => Math.abs(t[edge] - anchor[edge]) <= EDGE_TOLERANCE).sort((a, b) => a.base - b.base);
      if (column.length > best.length && column.every((t, i) => i === 0 || counts(column[i - 1]!, t))) best = column;
    }
  }
  return best.length >= MIN_COLUMN ? best : [];
}
