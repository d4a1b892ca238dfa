/**
 * The format_options transforms and output formats of POST /v3/latex (spec 4.4, answer 2.2),
 * applied to the LaTeX the maths recogniser returned. The spec names the transforms; their
 * behaviour, as Folio implements it:
 * - rm_spaces: drops spaces LaTeX ignores (around operators, braces and scripts), keeps the one
 *   after a control word that a letter follows (`\alpha x`).
 * - rm_newlines: newlines become spaces.
 * - rm_fonts: drops font commands (\mathrm \mathbf \mathit \mathsf \mathtt \mathcal \mathbb
 *   \mathfrak \mathscr \boldsymbol \operatorname*), keeping their argument.
 * - rm_style_syms: replaces styled commands with plain ones: \left \right \big… dropped,
 *   \displaystyle \textstyle dropped, \dfrac \tfrac → \frac, \bigoplus → \oplus, \bigcup → \cup…
 * - rm_text: drops \text{…} groups at the start or end of the formula (words left or right of
 *   the maths).
 * - long_frac: long division written `3 \longdiv{144}` (divisor, then the dividend under the
 *   bracket) becomes \frac{144}{3}.
 * latex_normal = rm_fonts + rm_style_syms; latex_simplified and latex_list also apply long_frac;
 * latex_styled is the recogniser's LaTeX unchanged; latex_list splits rows (\\) of a top-level
 * aligned/array/cases/gathered body into one string each (a single formula gives one element).
 */

export const LATEX_TRANSFORMS = ['rm_spaces', 'rm_newlines', 'rm_fonts', 'rm_style_syms', 'rm_text', 'long_frac'] as const;
export type LatexTransform = (typeof LATEX_TRANSFORMS)[number];

const FONT_COMMANDS = ['mathrm', 'mathbf', 'mathit', 'mathsf', 'mathtt', 'mathcal', 'mathbb', 'mathfrak', 'mathscr', 'boldsymbol', 'bm'];
const STYLE_SYMBOLS: Record<string, string> = {
  bigoplus: '\\oplus',
  bigotimes: '\\otimes',
  bigodot: '\\odot',
  bigcup: '\\cup',
  bigcap: '\\cap',
  bigvee: '\\vee',
  bigwedge: '\\wedge',
  bigsqcup: '\\sqcup',
  biguplus: '\\uplus',
  dfrac: '\\frac',
  tfrac: '\\frac',
  dbinom: '\\binom',
  tbinom: '\\binom',
};
const SIZING = /\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|Biggl|Biggr|big|Big|bigg|Bigg|middle)(?![A-Za-z])\s*/g;

/** Index just past the brace group that opens at `open` (s[open] === '{'), or -1. */
export function groupEnd(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Replaces every `\name{arg}` by `replace(arg)` (nested occurrences included). */
function mapCommand(s: string, names: string[], replace: (arg: string, name: string) => string): string {
  const re = new RegExp(`\\\\(${names.join('|')})(?![A-Za-z])\\s*\\{`, 'g');
  let out = '';
  let from = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const open = m.index + m[0].length - 1;
    const end = groupEnd(s, open);
    if (end < 0) break;
    out += s.slice(from, m.index) + replace(mapCommand(s.slice(open + 1, end - 1), names, replace), m[1]!);
    from = end;
    re.lastIndex = end;
  }
  return out + s.slice(from);
}

export function rmSpaces(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .replace(/ ?([{}^_=+\-*/<>(),|[\]&]) ?/g, '$1')
    .replace(/(\\[A-Za-z]+) (?![A-Za-z])/g, '$1')
    .trim();
}

export function rmFonts(s: string): string {
  const plain = mapCommand(s, FONT_COMMANDS, (arg) => (arg.length === 1 || /^\\[A-Za-z]+$/.test(arg) ? arg : `{${arg}}`));
  return mapCommand(plain, ['operatorname\\*?'], (arg) => `\\operatorname{${arg}}`);
}

export function rmStyleSyms(s: string): string {
  return s
    .replace(SIZING, '')
    .replace(/\\(?:displaystyle|textstyle|scriptstyle|scriptscriptstyle)(?![A-Za-z])\s*/g, '')
    .replace(/\\([A-Za-z]+)(?![A-Za-z])/g, (whole, name: string) => STYLE_SYMBOLS[name] ?? whole);
}

export function rmText(s: string): string {
  return s.replace(/^\s*\\text\s*\{[^{}]*\}\s*/, '').replace(/\s*\\text\s*\{[^{}]*\}\s*$/, '');
}

export function longFrac(s: string): string {
  return s.replace(/([A-Za-z0-9.]+)\s*\\longdiv\s*\{([^{}]*)\}/g, (_, divisor: string, dividend: string) => `\\frac{${dividend.trim()}}{${divisor}}`);
}

const APPLY: Record<LatexTransform, (s: string) => string> = {
  rm_spaces: rmSpaces,
  rm_newlines: (s) => s.replace(/\s*\n\s*/g, ' '),
  rm_fonts: rmFonts,
  rm_style_syms: rmStyleSyms,
  rm_text: rmText,
  long_frac: longFrac,
};

/** Applies transforms in the spec's order, each once. */
export function applyTransforms(latex: string, transforms: Iterable<LatexTransform>): string {
  const set = new Set(transforms);
  return LATEX_TRANSFORMS.filter((t) => set.has(t)).reduce((s, t) => APPLY[t](s), latex);
}

/** Rows of a top-level multi-row environment, or the formula itself. */
export function latexRows(latex: string): string[] {
  const m = /^\s*\\begin\{(aligned|align\*?|array|cases|gathered|gather\*?|split|eqnarray\*?)\}(\{[^}]*\})?([\s\S]*)\\end\{\1\}\s*$/.exec(latex);
  if (!m) return [latex];
  return m[3]!
    .split(/\\\\/)
    .map((r) => r.replace(/&/g, ' ').trim())
    .filter(Boolean);
}

export interface LatexFormatOptions {
  transforms?: LatexTransform[];
  math_delims?: [string, string];
  displaymath_delims?: [string, string];
}

/** The string formats of 2.2 that come from LaTeX alone (mathml, asciimath and wolfram need MathJax). */
export function latexFormats(latex: string, opts: LatexFormatOptions = {}) {
  const user = opts.transforms ?? [];
  const styled = applyTransforms(latex, user);
  const normal = applyTransforms(latex, [...user, 'rm_fonts', 'rm_style_syms']);
  const simplified = applyTransforms(latex, [...user, 'rm_fonts', 'rm_style_syms', 'long_frac']);
  const [mo, mc] = opts.math_delims ?? ['\\(', '\\)'];
  const [dopen, dclose] = opts.displaymath_delims ?? ['\\[', '\\]'];
  return {
    text: `${mo} ${styled} ${mc}`,
    text_display: `${dopen}\n${styled}\n${dclose}`,
    latex_styled: styled,
    latex_normal: normal,
    latex_simplified: simplified,
    latex_list: latexRows(simplified),
  };
}

/**
 * Wolfram Alpha input from AsciiMath (which Wolfram Alpha reads almost as is): spacing normalised,
 * `xx` (times) → `*`, `+-` → `±`. AsciiMath comes from mathpix-markdown-it (mmd-render.ts).
 */
export function wolframFromAsciimath(ascii: string): string {
  return ascii
    .replace(/\bxx\b/g, '*')
    .replace(/\+-/g, '±')
    .replace(/\s+/g, ' ')
    .trim();
}
