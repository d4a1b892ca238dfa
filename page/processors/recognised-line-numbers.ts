import type { Box } from '../geometry.js';
import { MIN_COLUMN } from './line-numbers.js';
import { upperMedian } from './line-measures.js';

/**
 * Margin line numbers (lineno's, a review copy's) on a page image, told from its recognised lines:
 * the scan's side of line-numbers.ts. Left on the page they open the lines beside them (`2 Lorem…`,
 * a line `3` alone) and, worse, the rows of display maths the maths engine reads (`11(1)E=mc^{2}`,
 * which also hides a left equation number from equation-number.ts).
 *
 * A margin number is a word of digits alone at a line's outer end, standing clear of the text
 * block: left of where the page's lines start (or right of where they end), with a gap to the
 * line's next word. Those sharing one edge (lineno sets them flush right in the left margin) and
 * counting up down the page by no more than the lines between them form a column. The text model
 * misreads some of them (`44` as `4`, `50` as `so`) and misses others, so the column is the
 * longest run that counts up, not every candidate. A page number is alone; a section number starts
 * the text block; a list's or an equation's number has its `.` or parentheses.
 */

/** What the finder reads of a recognised line: its words' boxes in upright page pixels. */
export interface NumberLine {
  box: Box;
  words: { text: string; box: Box }[];
}

/** Where a column of margin numbers stands, in upright page pixels (x1, y1 exclusive). */
export interface NumberStrip {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A run of digits a line number may be (lineno counts a document's lines: at most 5 digits). */
const DIGITS = /^\d{1,5}$/u;
/** The gap from a number to its line's next word, in line heights. */
const CLEAR_GAP = 0.25;
/** The numbers of one column share an edge within this many line heights (the text model's word boxes are approximate). */
const EDGE_TOLERANCE = 0.3;
/** How far the strip reaches beyond the numbers' word boxes into the margin, in line heights. */
const STRIP_PAD = 0.3;
/** The share of lines at or right of the text block's left edge (or left of its right edge). */
const EDGE_QUANTILE = 0.25;

interface Token {
  value: number;
  box: Box;
}

/** The page's columns of margin line numbers: none unless a column of MIN_COLUMN is found beside the text block. */
export function recognisedLineNumbers(lines: readonly NumberLine[]): NumberStrip[] {
  const withWords = lines.filter((l) => l.words.length > 0);
  if (withWords.length < MIN_COLUMN) return [];
  const height = upperMedian(withWords.map((l) => l.box.height));
  const sorted = (l: NumberLine) => [...l.words].sort((a, b) => a.box.x - b.box.x);
  const isNumber = (w: { text: string }) => DIGITS.test(w.text);
  // The text block's edges: where lines start and end, a number opening or closing a line left
  // out (a line's box where it holds none: the words' boxes are approximate).
  const body = withWords.filter((l) => l.words.some((w) => !isNumber(w)));
  if (body.length < MIN_COLUMN) return [];
  const starts = body.map((l) => (isNumber(sorted(l)[0]!) ? sorted(l)[1]!.box.x : l.box.x)).sort((a, b) => a - b);
  const ends = body.map((l) => (isNumber(sorted(l).at(-1)!) ? end(sorted(l).at(-2)!.box) : end(l.box))).sort((a, b) => b - a);
  const left = starts[Math.floor(EDGE_QUANTILE * starts.length)]!;
  const right = ends[Math.floor(EDGE_QUANTILE * ends.length)]!;
  const gap = CLEAR_GAP * height;
  const leftTokens: Token[] = [];
  const rightTokens: Token[] = [];
  for (const line of withWords) {
    const words = sorted(line);
    const [first, last] = [words[0]!, words.at(-1)!];
    const second = words[1];
    if (isNumber(first) && end(first.box) < left && (!second || second.box.x >= end(first.box) + gap)) {
      leftTokens.push({ value: Number(first.text), box: first.box });
    } else if (isNumber(last) && last.box.x > right && (words.length < 2 || end(words.at(-2)!.box) <= last.box.x - gap)) {
      rightTokens.push({ value: Number(last.text), box: last.box });
    }
  }
  const leading = lineLeading(body);
  const strips: NumberStrip[] = [];
  for (const [tokens, edge] of [
    [leftTokens, 'right'],
    [rightTokens, 'left'],
  ] as const) {
    const column = numberColumn(tokens, edge, height, leading);
    if (column.length < MIN_COLUMN) continue;
    // Out to a pad beyond the numbers on the margin's side, halfway to the text block on the other.
    const pad = STRIP_PAD * height;
    const [first, last] = [Math.min(...column.map((t) => t.box.x)), Math.max(...column.map((t) => end(t.box)))];
    strips.push({
      x0: Math.floor(edge === 'left' ? (right + first) / 2 : first - pad),
      x1: Math.ceil(edge === 'right' ? (last + left) / 2 : last + pad),
      y0: Math.floor(Math.min(...column.map((t) => t.box.y)) - leading),
      y1: Math.ceil(Math.max(...column.map((t) => t.box.y + t.box.height)) + leading),
    });
  }
  return strips;
}

/** Whether a word's box lies in one of the strips (by its centre). */
export function inNumberStrip(strips: readonly NumberStrip[], box: Box): boolean {
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  return strips.some((s) => x >= s.x0 && x < s.x1 && y >= s.y0 && y < s.y1);
}

const end = (b: Box) => b.x + b.width;

/** The median step between the tops of successive lines (the body's leading). */
function lineLeading(lines: NumberLine[]): number {
  const tops = lines.map((l) => l.box.y).sort((a, b) => a - b);
  const steps = tops
    .slice(1)
    .map((t, i) => t - tops[i]!)
    .filter((s) => s > 0);
  return upperMedian(steps);
}

/**
 * The longest run of tokens sharing one edge (`edge` of their boxes, within EDGE_TOLERANCE line
 * heights) whose values grow down the page by no more than the lines between them.
 */
function numberColumn(tokens: Token[], edge: 'left' | 'right', height: number, leading: number): Token[] {
  const at = (t: Token) => (edge === 'left' ? t.box.x : end(t.box));
  const counts = (upper: Token, lower: Token) =>
    lower.value > upper.value && (leading <= 0 || lower.value - upper.value <= Math.round((lower.box.y - upper.box.y) / leading) + 1);
  let best: Token[] = [];
  for (const anchor of tokens) {
    const shared = tokens.filter((t) => Math.abs(at(t) - at(anchor)) <= EDGE_TOLERANCE * height).sort((a, b) => a.box.y - b.box.y);
    // Longest chain by dynamic programming over the tokens in page order.
    const longest: Token[][] = [];
    for (const [i, t] of shared.entries()) {
      let chain: Token[] = [];
      for (let j = 0; j < i; j++) if (longest[j]!.length > chain.length && counts(shared[j]!, t)) chain = longest[j]!;
      longest.push([...chain, t]);
    }
    for (const chain of longest) if (chain.length > best.length) best = chain;
  }
  return best;
}
