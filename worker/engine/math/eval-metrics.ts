import { RADICAL, RULE, type Box } from './types.js';

/**
 * The maths evaluation's scoring (models/eval/run.ts): token edit distance, exact-match and
 * timing summaries, symbol-box matching for symbol accuracy, and the markdown tables. Pure
 * functions, so the numbers the harness publishes are themselves tested.
 */

/** Splits LaTeX into tokens: control words (`\alpha`), control symbols (`\{`, `\,`) and single characters; whitespace is dropped. */
export function latexTokens(latex: string): string[] {
  return latex.match(/\\[a-zA-Z]+|\\[^a-zA-Z]|\S/gsu) ?? [];
}

/** Levenshtein distance between two token sequences (insert, delete, substitute each cost 1). */
export function levenshtein(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}

/** Token edit distance divided by the longer sequence's length: 0 is identical, 1 is nothing in common. */
export function normalisedEditDistance(expected: string, got: string): number {
  const a = latexTokens(expected);
  const b = latexTokens(got);
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : levenshtein(a, b) / longest;
}

/** The q-quantile (0..1) by linear interpolation between closest ranks; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/** One formula through one front end, both sides already normalised. */
export interface ScoredFormula {
  id: string;
  category: string;
  /** The corpus LaTeX, as written. */
  source: string;
  expected: string;
  got: string;
  ms: number;
  /** Set when the front end, the parser or the normaliser threw; the formula then scores as wrong. */
  error?: string;
}

/** Scores a recognised formula: exact under normalisation, and its normalised token edit distance. */
export function isExact(row: ScoredFormula): boolean {
  return row.error === undefined && row.expected === row.got;
}

export function rowDistance(row: ScoredFormula): number {
  return row.error === undefined ? normalisedEditDistance(row.expected, row.got) : 1;
}

export interface Summary {
  count: number;
  exactRate: number;
  meanDistance: number;
  medianMs: number;
  p90Ms: number;
  errors: number;
  /** Exact-match rate per category; NaN for a category without formulas in this run. */
  exactByCategory: Record<string, number>;
}

/** Aggregates one front end's rows; formulas that threw count as wrong and are left out of the timings. */
export function summarise(rows: readonly ScoredFormula[], categories: readonly string[]): Summary {
  const rate = (subset: readonly ScoredFormula[]) => (subset.length === 0 ? Number.NaN : subset.filter(isExact).length / subset.length);
  const timings = rows.filter((row) => row.error === undefined).map((row) => row.ms);
  const distances = rows.map(rowDistance);
  return {
    count: rows.length,
    exactRate: rate(rows),
    meanDistance: distances.length === 0 ? Number.NaN : distances.reduce((s, d) => s + d, 0) / distances.length,
    medianMs: quantile(timings, 0.5),
    p90Ms: quantile(timings, 0.9),
    errors: rows.length - timings.length,
    exactByCategory: Object.fromEntries(categories.map((c) => [c, rate(rows.filter((row) => row.category === c))])),
  };
}

export interface LabelledBox {
  latex: string;
  box: Box;
}

export interface SymbolTally {
  /** Ground-truth symbols. */
  truth: number;
  /** Of those, how many had a recognised symbol on them. */
  matched: number;
  /** Of those, how many carried an equivalent label. */
  agreed: number;
  /** Disagreements counted by `truth → recognised` (`truth → nothing` when no box matched). */
  confusions: Record<string, number>;
}

export const NO_TALLY: SymbolTally = { truth: 0, matched: 0, agreed: 0, confusions: {} };

/**
 * Labels that name the same ink, so a front end is not blamed for a choice no picture can make:
 * a flat stroke is a minus, a bar accent or a rule until the parser decides; a vertical bar is
 * `|`, `\mid` or `\vert` alike. Anything not listed must match exactly.
 */
const SAME_INK: readonly (readonly string[])[] = [
  [RULE, '-', '\\bar', '\\overline'],
  ["'", '\\prime'],
  ['|', '\\mid', '\\vert'],
  ['\\|', '\\Vert'],
  ['\\rightarrow', '\\to'],
  ['\\leq', '\\le'],
  ['\\geq', '\\ge'],
  ['\\neq', '\\ne'],
  [RADICAL, '\\surd'],
];

function inkClass(latex: string): string {
  return SAME_INK.find((group) => group.includes(latex))?.[0] ?? latex;
}

function area(b: Box): number {
  return Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
}

function intersection(a: Box, b: Box): number {
  return area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) });
}

/** Half the smaller box must be covered: PDF boxes may be font-metric boxes, taller than the ink an image shows. */
const MIN_COVER = 0.5;

/** Boxes thinner than this (a minus, a fraction bar, a `|`: one pixel in a 150 dpi raster) are widened to it before pairing. */
const HAIRLINE = 2;

/**
 * A hairline's box widened across its thin side to HAIRLINE, about its centre. A rasteriser snaps
 * a thin rule to whole pixels (pdftoppm's stroke adjustment), up to a pixel from where the PDF puts
 * it, so the raster's one-pixel minus and the PDF's 0.7-pixel one need not overlap at all.
 */
function widened(b: Box): Box {
  const grow = (low: number, high: number): [number, number] => {
    const missing = HAIRLINE - (high - low);
    return missing > 0 ? [low - missing / 2, high + missing / 2] : [low, high];
  };
  const [x0, x1] = grow(b.x0, b.x1);
  const [y0, y1] = grow(b.y0, b.y1);
  return { x0, y0, x1, y1 };
}

/**
 * Pairs ground-truth symbols with recognised ones (one to one, greedily by IoU among pairs where
 * the overlap covers at least half of the smaller box; hairlines widened first) and counts how many
 * pairs agree on the label.
 */
export function matchSymbols(truth: readonly LabelledBox[], found: readonly LabelledBox[]): SymbolTally {
  const candidates: Array<{ t: number; f: number; iou: number }> = [];
  truth.forEach((t, ti) =>
    found.forEach((f, fi) => {
      const [a, b] = [widened(t.box), widened(f.box)];
      const overlap = intersection(a, b);
      const smaller = Math.max(Math.min(area(a), area(b)), 1e-9);
      if (overlap / smaller < MIN_COVER) return;
      candidates.push({ t: ti, f: fi, iou: overlap / (area(a) + area(b) - overlap) });
    }),
  );
  candidates.sort((x, y) => y.iou - x.iou);
  const usedTruth = new Set<number>();
  const usedFound = new Set<number>();
  let agreed = 0;
  const confusions: Record<string, number> = {};
  const confuse = (key: string) => (confusions[key] = (confusions[key] ?? 0) + 1);
  for (const { t, f } of candidates) {
    if (usedTruth.has(t) || usedFound.has(f)) continue;
    usedTruth.add(t);
    usedFound.add(f);
    if (inkClass(truth[t].latex) === inkClass(found[f].latex)) agreed++;
    else confuse(`${truth[t].latex} → ${found[f].latex}`);
  }
  truth.forEach((t, i) => usedTruth.has(i) || confuse(`${t.latex} → nothing`));
  return { truth: truth.length, matched: usedTruth.size, agreed, confusions };
}

export function addTally(a: SymbolTally, b: SymbolTally): SymbolTally {
  const confusions = { ...a.confusions };
  for (const [key, n] of Object.entries(b.confusions)) confusions[key] = (confusions[key] ?? 0) + n;
  return { truth: a.truth + b.truth, matched: a.matched + b.matched, agreed: a.agreed + b.agreed, confusions };
}

/**
 * The construct a formula is filed under in failures.md: the first, hardest-first, that it
 * contains, so each failure lands in exactly one group.
 */
const CONSTRUCTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['matrix / determinant', /\\begin\{[pbvBV]?matrix\}|\\begin\{array\}/],
  ['cases', /\\begin\{cases\}/],
  ['integral', /\\i+nt\b|\\oint\b/],
  ['sum / product', /\\sum\b|\\prod\b/],
  ['limit', /\\lim\b/],
  ['root', /\\sqrt\b/],
  ['fraction / binomial', /\\[dt]?frac\b|\\binom\b/],
  ['accent', /\\(?:hat|bar|vec|dot|ddot|tilde|overline)\b/],
  ['prime', /'|\\prime\b/],
  ['upright text (chemistry, units, names)', /\\(?:mathrm|text|operatorname)\b/],
  ['sub- / superscript', /[_^]/],
  ['symbols and function names', /\\[a-zA-Z]+/],
];

export const PLAIN_CONSTRUCT = 'plain row';

export function classifyConstruct(latex: string): string {
  return CONSTRUCTS.find(([, pattern]) => pattern.test(latex))?.[0] ?? PLAIN_CONSTRUCT;
}

export function constructNames(): string[] {
  return [...CONSTRUCTS.map(([name]) => name), PLAIN_CONSTRUCT];
}

/** A GitHub-flavoured markdown table; `|` inside cells is escaped so LaTeX like `|x|` survives. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** `87.3 %`, or `n/a` for a rate that could not be measured. */
export function percent(rate: number): string {
  return Number.isFinite(rate) ? `${(rate * 100).toFixed(1)} %` : 'n/a';
}
