/**
 * The two spellings of a multi-row formula (spec 4.2 rule 6, 4.7). The recognisers write the
 * idiomatic environments: `aligned` (rows aligned at `&`), `gathered` (rows centred) and `cases`.
 * Unless a request sets idiomatic_eqn_arrays (or include_equation_tags, which forces it), the
 * answer writes them as arrays, as the hosted default does:
 * - `aligned` → `\begin{array}{rl…}`, one column a side of each `&` (right, left, right, …);
 * - `gathered` → `\begin{array}{c}`;
 * - `cases` → `\left\{\begin{array}{ll}…\end{array}\right.`.
 * `idiomaticSpelling` reads those arrays back as the environments, for the evaluations, which
 * score recognition and count the two spellings as equal.
 */

const IDIOMATIC = /\\begin\{(aligned|gathered|cases)\}((?:(?!\\begin\{(?:aligned|gathered|cases)\})[\s\S])*?)\\end\{\1\}/g;

/** The formula with every aligned, gathered and cases environment written as an array, innermost first. */
export function arraySpelling(latex: string): string {
  let out = latex;
  for (let before = ''; before !== out;) {
    before = out;
    out = out.replace(IDIOMATIC, (_, name: string, body: string) => {
      if (name === 'cases') return `\\left\\{\\begin{array}{ll}${body}\\end{array}\\right.`;
      const spec = name === 'gathered' ? 'c' : alignedColumns(body);
      return `\\begin{array}{${spec}}${body}\\end{array}`;
    });
  }
  return out;
}

const CASES_ARRAY = /\\left\s*\\\{\s*\\begin\{array\}\{l+\}((?:(?!\\begin\{array\})[\s\S])*?)\\end\{array\}\s*\\right\s*\./g;
const ALIGNED_ARRAY = /\\begin\{array\}\{(r(?:lr)*l?)\}((?:(?!\\begin\{array\})[\s\S])*?)\\end\{array\}/g;
const GATHERED_ARRAY = /\\begin\{array\}\{c\}((?:(?!\\begin\{array\})[\s\S])*?)\\end\{array\}/g;

/** The arrays `arraySpelling` writes read back as the environments they spell (innermost first). */
export function idiomaticSpelling(latex: string): string {
  let out = latex;
  for (let before = ''; before !== out;) {
    before = out;
    out = out
      .replace(CASES_ARRAY, '\\begin{cases}$1\\end{cases}')
      .replace(ALIGNED_ARRAY, '\\begin{aligned}$2\\end{aligned}')
      .replace(GATHERED_ARRAY, '\\begin{gathered}$1\\end{gathered}');
  }
  return out;
}

/** `rl…`: one column on each side of every `&` of the row that has the most. */
function alignedColumns(body: string): string {
  let most = 0;
  let here = 0;
  let depth = 0;
  for (const [token] of body.matchAll(/\\begin\{[^}]*\}|\\end\{[^}]*\}|\\\\|\\.|[{}&]/g)) {
    if (token === '{' || token.startsWith('\\begin')) depth++;
    else if (token === '}' || token.startsWith('\\end')) depth--;
    else if (depth === 0 && token === '&') most = Math.max(most, ++here);
    else if (depth === 0 && token === '\\\\') here = 0;
  }
  return Array.from({ length: most + 1 }, (_, i) => (i % 2 ? 'l' : 'r')).join('');
}
