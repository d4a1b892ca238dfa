import { idiomaticSpelling } from '../../../page/render/eqn-arrays.js';
import { splitRows } from '../../../page/row-tags.js';
import { normaliseLatex } from '../../../worker/engine/math/latex-normalise.js';

/**
 * The display-level normal form of the real-document evaluation, applied to the source display
 * and to the MMD display alike before normaliseLatex (worker/engine/math/latex-normalise.ts, whose
 * header lists the formula-level rules). On top of those:
 * - `\text{if $x$}` is the text and the maths it holds; an array between delimiters is the matrix
 *   environment of those delimiters (pmatrix, bmatrix, Bmatrix, vmatrix), a one-cell array its cell;
 * - the array spellings of aligned, gathered and cases (`\begin{array}{rl}`, `{c}`,
 *   `\left\{\begin{array}{ll}…\right.`: what /v3/pdf writes unless idiomatic_eqn_arrays is set,
 *   page/render/eqn-arrays.ts) are those environments: the same rows spelled two ways;
 * - amsmath's `\dots` becomes what it prints (`\cdots` before a binary operator or relation,
 *   else `\ldots`); `\not=` is `\neq` and `\not\in` is `\notin`;
 * - what the page does not print is removed: `\label{…}`, `\nonumber`, `\notag`, `\intertext{…}`
 *   (prose between rows: score.ts scores the rows on either side as displays of their own,
 *   intertextParts), `\tag{…}` (the evaluation runs at default options, where equation
 *   numbers are not part of the LaTeX), and the invisible `\phantom{…}` `\vphantom{…}`
 *   `\hphantom{…}` `\mathstrut` `\strut`; `\smash{x}` is `x`;
 * - the top-level environment is a spelling of layout, not of the formula: align, align*,
 *   flalign, eqnarray, alignat{n} and a display that is one split are all `aligned`; gather and
 *   multline (rows stacked, each centred or pushed to a side) are `gathered`; equation, `\[…\]`,
 *   `$$…$$` and displaymath are the bare formula; an aligned block without any `&` is `gathered`;
 * - a row break's optional spacing (`\\[4pt]`) and empty rows (a break after the last row) are
 *   dropped, eqnarray's `a &=& b` is `a &= b` and its rows of the centred middle column alone
 *   (`& x \\ & = y`) are `gathered`, an operator written just before the `&` (`a =& b`, or
 *   `a = {}& b`, whose empty group keeps the relation's space: printed exactly as `a &= b`)
 *   moves after it (`a &= b`: the same glyph at the same point) unless it is a script (`x_- & 0`), and a one-row aligned or gathered
 *   block is its row with its `&` removed.
 */

const ALIGNED = /^(align|flalign|eqnarray|alignat|split|aligned|alignedat)\*?$/u;
const GATHERED = /^(gather|multline|gathered)\*?$/u;
// Not a script's argument (`(\hat a)_- & 0`, `x_\pm &= …`): that operator belongs to its script.
const OPERATOR_BEFORE_AMPERSAND =
  /(?<![_^]\s*)(=|<|>|\+|-|\\(?:leq?|geq?|neq?|approx|equiv|sim|simeq|cong|iff|implies|(?:[Ll]ong)?(?:[Ll]eft|[Rr]ight|[Ll]eftright)arrow|to|subset|subseteq|in|cdot|times|pm)\b)\s*(?:\{\s*\}\s*)?&/gu;

/** A display's LaTeX without its bold markup (`\mathbf{…}`, `\boldsymbol{…}`, `\bm{…}` leave their content as a group). */
export function withoutBold(latex: string): string {
  let text = latex;
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(/\\(?:mathbf|boldsymbol|bm)\s*\{((?:[^{}]|\{[^{}]*\})*)\}/gu, '{$1}');
  }
  return text;
}

/** The canonical, normalised LaTeX of a display written in `environment` with `body`. */
export function normaliseDisplay(environment: string, body: string): string {
  let text = idiomaticSpelling(delimitedArrays(textWithMaths(resolveDots(body))))
    // A typewriter letter in maths prints the same glyph either way.
    .replace(/\\mathtt\s*\{/gu, '\\texttt{')
    .replace(/\\not\s*=/gu, '\\neq ')
    .replace(/\\not\s*\\in\b/gu, '\\notin ')
    .replace(/\\(label|tag\*?|intertext|shortintertext|phantom|hphantom|vphantom|leftroot|uproot)\s*(\[[^\]]*\])?\s*\{(?:[^{}]|\{[^{}]*\})*\}/gu, ' ')
    .replace(/\\(nonumber|notag|mathstrut|strut)\b/gu, ' ')
    .replace(/\\smash\s*(\[[a-z]\])?/gu, ' ')
    .trim();
  // `\begin{equation}\begin{split}…\end{split}\end{equation}`: the split is the display.
  const single = /^\\begin\{(split|aligned|gathered)\}([\s\S]*)\\end\{\1\}$/u.exec(text);
  let name = environment;
  if (single && !single[2]!.includes(`\\begin{${single[1]}}`)) {
    name = single[1]!;
    text = single[2]!;
  }
  if (ALIGNED.test(name) || GATHERED.test(name)) {
    if (/^alignat/u.test(name)) text = text.replace(/^\s*\{\d+\}/u, '');
    let rows = splitRows(text).filter((row) => row !== '');
    // eqnarray's middle column is centred: rows that hold nothing else (`& x \\ & = y`) are stacked
    // rows, centred on one axis as gather's are.
    const middleOnly = /^eqnarray/u.test(name) && rows.every((row) => /^\s*&[^&]*(&\s*)?$/u.test(row));
    if (middleOnly) {
      rows = rows.map((row) => row.replace(/&/gu, ' '));
      name = 'gather';
    }
    // eqnarray sets its relation in a column of its own (`a &=& b`): the page shows `a &= b`.
    if (/^eqnarray/u.test(name)) rows = rows.map((row) => row.replace(/&([^&]*)&/u, '&$1'));
    // `a =& b` and `a &= b` align the same glyph at the same point: the operator goes after the `&`.
    rows = rows.map((row) => row.replace(OPERATOR_BEFORE_AMPERSAND, '&$1 '));
    // Rows with no alignment point are stacked rows, whichever environment stacked them.
    const block = ALIGNED.test(name) && rows.some((row) => topLevelAmpersand(row)) ? 'aligned' : 'gathered';
    text = rows.length === 1 ? rows[0]!.replace(/&/gu, ' ') : `\\begin{${block}}${rows.join('\\\\')}\\end{${block}}`;
  }
  return normaliseLatex(text.replace(/\\\\\s*\[[^\]]*\]/gu, '\\\\'));
}

/**
 * The rows of a display on either side of each `\intertext{…}`/`\shortintertext{…}`: the page
 * prints them as separate displays with the prose between (and so does the MMD), so each part is
 * scored as a display of the same environment (score.ts). A display without one is its one part.
 */
export function intertextParts(body: string): string[] {
  const parts: string[] = [];
  let at = 0;
  for (const match of body.matchAll(/\\(?:short)?intertext\s*\{/gu)) {
    if (match.index < at) continue;
    let depth = 1;
    let end = match.index + match[0].length;
    for (; end < body.length && depth > 0; end++) depth += body[end] === '{' ? 1 : body[end] === '}' ? -1 : 0;
    parts.push(body.slice(at, match.index));
    at = end;
  }
  parts.push(body.slice(at));
  // A part of nothing but row breaks, labels and tags prints nothing.
  const printed = parts.filter((part) => /[^\s\\]/u.test(part.replace(/\\(label|tag\*?)\s*\{[^{}]*\}|\\(nonumber|notag)\b/gu, '')));
  return printed.length ? printed : [body];
}

/** `\text{if $i \in A$}` is the text `if` and the maths `i \in A`. */
function textWithMaths(body: string): string {
  let out = '';
  let at = 0;
  for (const match of body.matchAll(/\\text(?:rm|up|normal)?\s*\{/gu)) {
    if (match.index < at) continue;
    let depth = 1;
    let end = match.index + match[0].length;
    for (; end < body.length && depth > 0; end++) depth += body[end] === '{' ? 1 : body[end] === '}' ? -1 : 0;
    const inner = body.slice(match.index + match[0].length, end - 1);
    out += body.slice(at, match.index);
    out += inner.includes('$')
      ? inner
          .split('$')
          .map((part, i) => (i % 2 ? ` ${part} ` : part.trim() ? `\\text{${part}}` : ''))
          .join('')
      : body.slice(match.index, end);
    at = end;
  }
  return out + body.slice(at);
}

const ARRAY_DELIMITERS: Array<[string, string, string]> = [
  ['\\(', '\\)', 'pmatrix'],
  ['\\[', '\\]', 'bmatrix'],
  ['\\\\\\{', '\\\\\\}', 'Bmatrix'],
  ['\\|', '\\|', 'vmatrix'],
];

/**
 * An array between delimiters prints as the matrix environment with them (`\left(\begin{array}{cc}…`
 * is a pmatrix), and a one-cell array is its cell.
 */
function delimitedArrays(body: string): string {
  let text = body.replace(/\\begin\{array\}\{[^}]*\}((?:(?!\\begin\{array\}|&|\\\\)[\s\S])*?)\\end\{array\}/gu, ' {$1} ');
  for (const [open, close, environment] of ARRAY_DELIMITERS) {
    const pattern = new RegExp(`(?:\\\\left\\s*)?${open}\\s*\\\\begin\\{array\\}\\{[^}]*\\}([\\s\\S]*?)\\\\end\\{array\\}\\s*(?:\\\\right\\s*)?${close}`, 'gu');
    text = text.replace(pattern, `\\begin{${environment}}$1\\end{${environment}}`);
  }
  return text;
}

/** Whether a row has an `&` outside braces and nested environments. */
function topLevelAmpersand(row: string): boolean {
  let depth = 0;
  for (const match of row.matchAll(/\\begin\{[^}]*\}|\\end\{[^}]*\}|\\.|[{}&]/gu)) {
    const token = match[0];
    if (token === '{' || token.startsWith('\\begin')) depth++;
    else if (token === '}' || token.startsWith('\\end')) depth--;
    else if (token === '&' && depth === 0) return true;
  }
  return false;
}

/** amsmath's `\dots` is `\cdots` before a binary operator or relation and `\ldots` elsewhere; `\dotsb` `\dotsm` `\dotsi` are `\cdots`. */
function resolveDots(body: string): string {
  return body
    .replace(/\\dots[bmi]\b/gu, '\\cdots ')
    .replace(/\\dotsc\b/gu, '\\ldots ')
    .replace(/\\dots\b(?=\s*(?:[-+=<>]|\\(?:cdot|times|pm|mp|leq?|geq?|neq?|equiv|approx|sim|cup|cap|oplus|otimes|wedge|vee)\b))/gu, '\\cdots ');
}

/** The displays of an MMD document: each `\[ … \]` block (default display delimiters) with its LaTeX; printed code (a listing) holds none. */
export function mmdDisplays(mmd: string): string[] {
  const prose = mmd.replace(/^\\begin\{lstlisting\}\n[\s\S]*?\n\\end\{lstlisting\}$|^```[^\n]*\n[\s\S]*?\n```$/gmu, '');
  return [...prose.matchAll(/\\\[\n?([\s\S]*?)\n?\\\]/gu)].map((match) => match[1]!.trim());
}

/** An MMD display's canonical form: it may hold an environment of its own (`\begin{aligned}` …). */
export function normaliseMmdDisplay(latex: string): string {
  const outer = /^\\begin\{([a-z]+\*?)\}([\s\S]*)\\end\{\1\}$/u.exec(latex.trim());
  if (outer && (ALIGNED.test(outer[1]!) || GATHERED.test(outer[1]!)) && !outer[2]!.includes(`\\begin{${outer[1]}}`))
    return normaliseDisplay(outer[1]!, outer[2]!);
  return normaliseDisplay('[', latex);
}
