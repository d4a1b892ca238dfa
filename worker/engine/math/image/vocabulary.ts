import type { SymbolStyle } from '../types.js';

/**
 * The classes of the image symbol classifier, as the LaTeX tokens of `MathSymbol.latex`.
 *
 * Two kinds of symbol are deliberately absent: horizontal strokes (minus, fraction bar, overline,
 * `\bar`) are RULE, decided by geometry; and the dot is one class '.' because a full stop, `\cdot`
 * and a `\dot` accent are the same shape — `symbolsFromImage` picks among them by position. The
 * radical is RADICAL ('\\sqrt'): its hook and vinculum are one connected component the classifier
 * learns like any other glyph.
 */

const DIGITS = [...'0123456789'];
const LATIN = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const GREEK_LOWER = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'varepsilon',
  'zeta',
  'eta',
  'theta',
  'vartheta',
  'iota',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'xi',
  'pi',
  'rho',
  'sigma',
  'tau',
  'upsilon',
  'phi',
  'varphi',
  'chi',
  'psi',
  'omega',
].map((name) => `\\${name}`);
/** Only the capitals whose glyph differs from a Latin letter. */
const GREEK_UPPER = ['Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega'].map((name) => `\\${name}`);
/** Every Greek letter class. */
export const GREEK_LETTERS: readonly string[] = [...GREEK_LOWER, ...GREEK_UPPER];
const OPERATORS = ['+', '\\times', '\\div', '\\pm', '\\mp', '=', '\\neq', '<', '>', '\\leq', '\\geq', '\\approx', '\\equiv', '\\sim', '\\propto'];
const ARROWS = ['\\rightarrow', '\\leftarrow', '\\leftrightarrow', '\\Rightarrow', '\\Leftrightarrow', '\\mapsto'];
const DELIMITERS = ['(', ')', '[', ']', '\\{', '\\}', '|', '\\|', '\\langle', '\\rangle'];
/** Rendered at text and display size; `\bigcup`/`\bigcap` are the display forms of ∪/∩ and their own tokens. */
const BIG_OPERATORS = ['\\sum', '\\prod', '\\int', '\\oint', '\\cup', '\\cap', '\\bigcup', '\\bigcap'];
const MISC = [
  '\\infty',
  '\\partial',
  '\\nabla',
  '\\in',
  '\\notin',
  '\\subset',
  '\\subseteq',
  '\\supset',
  '\\forall',
  '\\exists',
  '\\emptyset',
  '\\mathbb{R}',
  '\\mathbb{N}',
  '\\mathbb{Z}',
  '\\mathbb{Q}',
  '\\mathbb{C}',
  '\\ell',
  '\\hbar',
  '\\sqrt',
];
const PUNCTUATION = [',', '.', ';', ':', '!', '?', '\\prime', '/', '*', '\\%'];
const ACCENTS = ['\\hat', '\\tilde', '\\vec'];

export const SYMBOL_CLASSES: readonly string[] = [
  ...DIGITS,
  ...LATIN,
  ...GREEK_LOWER,
  ...GREEK_UPPER,
  ...OPERATORS,
  ...ARROWS,
  ...DELIMITERS,
  ...BIG_OPERATORS,
  ...MISC,
  ...PUNCTUATION,
  ...ACCENTS,
];

/**
 * The image classifier also tells upright (roman) letters from italic ones, as classes of their
 * own: chemistry, units and `\text{…}` are upright, variables italic, and only the picture says
 * which. The stroke classifier shares SYMBOL_CLASSES alone (handwriting has no such style).
 */
export const UPRIGHT_LATIN: readonly string[] = LATIN.map((letter) => `\\mathrm{${letter}}`);
/** Typeset-only symbols (chemistry, degrees, floors) the image classifier also knows. */
const IMAGE_EXTRAS = ['\\circ', '\\rightleftharpoons', '\\lfloor', '\\rfloor', '\\perp'];
const CAPITALS = LATIN.filter((letter) => letter === letter.toUpperCase());
const SHIPPED_BLACKBOARD = new Set(MISC.filter((token) => token.startsWith('\\mathbb')));
/**
 * Letters of the other maths alphabets, each drawn unlike its plain letter: calligraphic capitals
 * (`\mathcal` has no lower case), fraktur in both cases, and the blackboard capitals beyond the
 * five number sets MISC already holds. Appended last, so the older classes keep their outputs.
 */
export const ALPHABET_LETTERS: readonly string[] = [
  ...CAPITALS.map((letter) => `\\mathcal{${letter}}`),
  ...LATIN.map((letter) => `\\mathfrak{${letter}}`),
  ...CAPITALS.map((letter) => `\\mathbb{${letter}}`).filter((token) => !SHIPPED_BLACKBOARD.has(token)),
];
export const IMAGE_CLASSES: readonly string[] = [...SYMBOL_CLASSES, ...UPRIGHT_LATIN, ...IMAGE_EXTRAS, ...ALPHABET_LETTERS];

/** The maths alphabets a class of the image classifier may be drawn in (its labels file lists its classes), by command. */
const ALPHABET_STYLES: Record<string, SymbolStyle> = {
  mathrm: 'upright',
  mathbf: 'bold',
  mathcal: 'calligraphic',
  mathfrak: 'fraktur',
  mathbb: 'blackboard',
};

/**
 * The letter a class draws in a maths alphabet and that alphabet's style (`\mathrm{H}` → `H`
 * upright, `\mathbf{x}` → `x` bold, `\mathbb{R}` → `R` blackboard), or null for any other class.
 */
export function styledLetter(token: string): { letter: string; style: SymbolStyle } | null {
  const match = /^\\(math[a-z]+)\{([A-Za-z])\}$/u.exec(token);
  const style = match && ALPHABET_STYLES[match[1]];
  return style ? { letter: match[2], style } : null;
}

/** Tokens the classifier never outputs because they share the shape of the class '.'. */
export const DOT_TOKENS = { period: '.', centred: '\\cdot', accent: '\\dot' } as const;

/** A relation with a bar of its own width under it, by the relation drawn above the bar (`<` and its bar are `\leq`). */
export const OR_EQUAL: Readonly<Record<string, string>> = { '<': '\\leq', '>': '\\geq', '\\subset': '\\subseteq', '\\supset': '\\supseteq' };

/** The classes drawn as a glyph over a bar of its own width, for which the merge step joins such a bar. */
export const BARRED: ReadonlySet<string> = new Set([...Object.values(OR_EQUAL), '\\equiv', '\\preceq', '\\succeq', '\\simeq', '\\cong']);
