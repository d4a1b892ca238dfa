import { FUNCTION_NAMES, SYNONYMS } from './latex-vocabulary.js';

/**
 * The parsed LaTeX of the normal form (latex-normalise.ts) and the spellings it equates because
 * they print the same: amsmath's `\genfrac`, a spaced `\operatorname`, a digit's `\boldsymbol`, a
 * labelled arrow, the marked `\lim`s, a bracketed group's scripts.
 */

export type Node =
  | { kind: 'token'; value: string }
  | { kind: 'group'; items: Item[] }
  | { kind: 'command'; name: string; optional?: Item[]; args: Item[][] }
  | { kind: 'environment'; name: string; spec?: string; body: Item[] };

export interface Item {
  base: Node;
  sub?: Item[];
  sup?: Item[];
}

export function textNode(text: string): Node {
  return { kind: 'command', name: '\\text', args: [[{ base: { kind: 'token', value: text } }]] };
}

/** The one unscripted token an argument holds, if that is all it holds. */
const soleToken = (items: Item[] | undefined): string | undefined =>
  items?.length === 1 && items[0]!.base.kind === 'token' && !items[0]!.sub && !items[0]!.sup ? items[0]!.base.value : undefined;

const LABELLED_ARROWS: Record<string, string> = {
  '\\rightarrow': '\\xrightarrow',
  '\\longrightarrow': '\\xrightarrow',
  '\\leftarrow': '\\xleftarrow',
  '\\longleftarrow': '\\xleftarrow',
};

/** A command with its arguments spelled as another that prints the same, or null. */
export function respelled(name: string, args: Item[][]): Node | null {
  // A digit in `\boldsymbol` is the bold roman digit `\mathbf` sets.
  if (name === '\\boldsymbol' && args[0]!.every((item) => item.base.kind === 'token' && /^\d$/u.test(item.base.value) && !item.sub && !item.sup)) {
    return { kind: 'command', name: '\\mathbf', args };
  }
  // A label set over an arrow is the labelled arrow amsmath stretches (`\stackrel{f}{\to}` ≡ `\xrightarrow{f}`).
  const arrow = name === '\\stackrel' || name === '\\overset' ? LABELLED_ARROWS[soleToken(args[1]) ?? ''] : undefined;
  if (arrow) return { kind: 'command', name: arrow, args: [args[0]!] };
  // amsmath's `\varlimsup` and `\varliminf` are an overlined and an underlined `\lim`.
  if (soleToken(args[0]) === '\\lim' && (name === '\\overline' || name === '\\underline')) {
    return { kind: 'token', value: name === '\\overline' ? '\\varlimsup' : '\\varliminf' };
  }
  return null;
}

/** `\operatorname`'s text: a standard function name's command, names a thin space apart (`arg\,max` prints `\arg\max`), or upright text. */
export function operatorName(text: string): Node {
  const words = text.split(/\\[,;:!]|\\\s|~|\s+/u).filter(Boolean);
  // One token, so its limits follow the last name as they follow `\arg\max` (one string either way).
  if (words.length > 1 && words.every((word) => FUNCTION_NAMES.has(word))) return { kind: 'token', value: words.map((word) => `\\${word}`).join('') };
  return FUNCTION_NAMES.has(text) ? { kind: 'token', value: `\\${text}` } : textNode(words.join(''));
}

/** The matrix environment of a pair of delimiters. */
const MATRIX_OF: Record<string, string> = { '()': 'pmatrix', '[]': 'bmatrix', '\\{\\}': 'Bmatrix', '||': 'vmatrix', '\\|\\|': 'Vmatrix' };

/**
 * `\genfrac{open}{close}{thickness}{style}{upper}{lower}` as what it prints: with a bar, the
 * fraction between its delimiters; without one (thickness 0), `\binom` between parentheses, else
 * the two rows stacked in the matrix of its delimiters.
 */
export function genfracNode(open: string, close: string, thickness: string, upper: Item[], lower: Item[]): Node {
  const token = (value: string): Item[] => (value ? [{ base: { kind: 'token', value: SYNONYMS[value] ?? value } }] : []);
  if (!/^0(\.0*)?([a-z]{2})?$/u.test(thickness.trim())) {
    return { kind: 'group', items: [...token(open), { base: { kind: 'command', name: '\\frac', args: [upper, lower] } }, ...token(close)] };
  }
  if (open === '(' && close === ')') return { kind: 'command', name: '\\binom', args: [upper, lower] };
  const body: Item[] = [...upper, { base: { kind: 'token', value: '\\\\' } }, ...lower];
  const matrix = MATRIX_OF[`${SYNONYMS[open] ?? open}${SYNONYMS[close] ?? close}`];
  if (matrix) return { kind: 'environment', name: matrix, body };
  return { kind: 'group', items: [...token(open), { base: { kind: 'environment', name: 'matrix', body } }, ...token(close)] };
}

const CLOSING: Record<string, string> = {
  '(': ')',
  '[': ']',
  '\\{': '\\}',
  '|': '|',
  '\\|': '\\|',
  '\\langle': '\\rangle',
  '\\lfloor': '\\rfloor',
  '\\lceil': '\\rceil',
};

/**
 * A group that is one bracketed expression, its closing bracket unscripted (`{[x]}`,
 * `{(a+b)}`): scripted, it prints as the same scripts on its closing bracket (`{[x]}_{a}^{b}` ≡
 * `[x]_{a}^{b}`), the bracket being the group's tallest part.
 */
export function isBracketed(inner: Item[]): boolean {
  const open = inner[0];
  const close = inner.at(-1);
  if (inner.length < 3 || open?.base.kind !== 'token' || close?.base.kind !== 'token' || open.sub || open.sup || close.sub || close.sup) return false;
  const closing = CLOSING[open.base.value];
  if (closing !== close.base.value) return false;
  // The first bracket must close at the last (`{(a)(b)}` is two).
  let depth = 0;
  for (const [i, item] of inner.entries()) {
    if (item.base.kind !== 'token') continue;
    if (item.base.value === closing && i > 0 && depth === 1) return i === inner.length - 1;
    if (item.base.value === open.base.value) depth++;
    else if (item.base.value === closing) depth--;
  }
  return false;
}
