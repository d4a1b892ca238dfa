/**
 * The LaTeX commands the evaluation's normal form knows (latex-normalise.ts): which standard
 * function names `\operatorname` may spell, which commands print nothing, which are synonyms,
 * and how many arguments each command takes.
 */

/** Function names `\operatorname{…}` writes as their commands (`\operatorname{sin}` → `\sin`). */
export const FUNCTION_NAMES = new Set(
  'sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan log ln lg exp lim liminf limsup max min sup inf det arg gcd deg dim ker hom Pr'.split(' '),
);

/** Commands dropped with nothing left behind. */
export const DROPPED = new Set([
  ...'\\, \\; \\: \\! ~ \\quad \\qquad \\enspace \\thinspace \\medspace \\thickspace \\negthinspace \\limits \\nolimits'.split(' '),
  ...'\\displaystyle \\textstyle \\scriptstyle \\scriptscriptstyle \\left \\right \\middle'.split(' '),
  ...'big Big bigg Bigg bigl bigr bigm Bigl Bigr Bigm biggl biggr biggm Biggl Biggr Biggm'.split(' ').map((name) => `\\${name}`),
  '\\ ',
]);
export const SIZED_DELIMITER_PREFIX = new Set(['\\left', '\\right', '\\middle']);

export const SYNONYMS: Record<string, string> = {
  '\\dfrac': '\\frac',
  '\\tfrac': '\\frac',
  '\\cfrac': '\\frac',
  '\\dbinom': '\\binom',
  '\\tbinom': '\\binom',
  '\\to': '\\rightarrow',
  '\\gets': '\\leftarrow',
  '\\le': '\\leq',
  '\\ge': '\\geq',
  '\\ne': '\\neq',
  '\\implies': '\\Longrightarrow',
  '\\impliedby': '\\Longleftarrow',
  '\\iff': '\\Longleftrightarrow',
  '\\dots': '\\ldots',
  '\\lbrace': '\\{',
  '\\rbrace': '\\}',
  '\\vert': '|',
  '\\lvert': '|',
  '\\rvert': '|',
  '\\Vert': '\\|',
  '\\lVert': '\\|',
  '\\rVert': '\\|',
  '\\mid': '|',
  '\\colon': ':',
  // bm's `\bm` draws from the same bold maths fonts as amsmath's `\boldsymbol`.
  '\\bm': '\\boldsymbol',
  // amsmath's poor man's bold overprints the symbol: it reads as bold.
  '\\pmb': '\\boldsymbol',
  '−': '-',
  '×': '\\times',
  '·': '\\cdot',
  '≤': '\\leq',
  '≥': '\\geq',
  '≠': '\\neq',
  '→': '\\rightarrow',
  '∞': '\\infty',
  '±': '\\pm',
  '∘': '\\circ',
  '◦': '\\circ',
  '⇌': '\\rightleftharpoons',
  '′': '\\prime',
};

/** Commands taking brace arguments, by argument count; some also take an optional `[…]` first. */
export const OPTIONAL_ARGUMENT = new Set(['\\sqrt', '\\xrightarrow', '\\xleftarrow']);
export const ARITY: Record<string, number> = {
  '\\frac': 2,
  '\\binom': 2,
  '\\overset': 2,
  '\\underset': 2,
  '\\stackrel': 2,
  '\\substack': 1,
  '\\boxed': 1,
  '\\underbrace': 1,
  '\\overbrace': 1,
};
for (const name of 'sqrt xrightarrow xleftarrow hat widehat bar overline underline vec overrightarrow overleftarrow overleftrightarrow underleftarrow underrightarrow underleftrightarrow dot ddot dddot ddddot tilde widetilde check breve acute grave mathring overbrace underbrace boxed cancel mathbf mathit mathsf mathtt mathcal mathbb mathfrak mathscr boldsymbol bm textbf textit'.split(
  ' ',
))
  ARITY[`\\${name}`] = 1;
export const TEXT_COMMANDS = new Set(['\\text', '\\textrm', '\\operatorname', '\\operatorname*', '\\hspace']);
