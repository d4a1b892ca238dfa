/**
 * Recognised maths is not always valid LaTeX (a double subscript, an unbalanced brace), and one
 * bad formula must not cost the reader the whole PDF. When pdflatex stops inside a formula, that
 * formula is replaced by its source set in typewriter type (\folioUnrendered) and the compile
 * runs again.
 */

/** Defined in the preamble (convert-latex.ts): how a formula pdflatex could not set is shown. */
export const UNRENDERED_MACRO = '\\newcommand\\folioUnrendered[1]{\\texttt{#1}}';

/** Formulas in pandoc's LaTeX: \( \), \[ \] and the amsmath display environments MMD passes through. */
const MATH_SPAN = /(?<!\\)\\\((?:.|\n)*?\\\)|(?<!\\)\\\[(?:.|\n)*?\\\]|\\begin\{(equation|align|gather|multline|eqnarray)(\*?)\}(?:.|\n)*?\\end\{\1\2\}/g;

const TEXT_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_',
  '^': '\\^{}',
  '~': '\\textasciitilde{}',
  '\n': ' ',
};

/** LaTeX source as text that typesets exactly as written. */
export function escapeLatexText(source: string): string {
  return source.replace(/[\\{}$&#%_^~\n]/g, (ch) => TEXT_ESCAPES[ch]!);
}

/** Where pdflatex stopped: the 1-based line, and the text of that line up to the error. */
export interface ErrorPlace {
  line: number;
  /** As TeX shows it after "l.<line> "; a leading "..." marks a cut-off start. */
  before: string;
}

/** The place of a pdflatex "file:line: message" error, or null when the log has none. */
export function errorPlace(log: string, texName: string): ErrorPlace | null {
  const m = new RegExp(`^(?:\\./)?${texName.replace(/\./g, '\\.')}:(\\d+): `, 'm').exec(log);
  if (!m) return null;
  const line = Number(m[1]);
  const context = new RegExp(`^l\\.${line} (.*)$`, 'm').exec(log.slice(m.index));
  return { line, before: context?.[1] ?? '' };
}

/**
 * `tex` with the formula pdflatex stopped in shown as its source instead; null when the error is
 * not inside a formula, so no repair can help.
 */
export function unrenderFormulaAt(tex: string, place: ErrorPlace): string | null {
  const lines = tex.split('\n');
  const text = lines[place.line - 1];
  if (text === undefined) return null;
  const lineStart = lines.slice(0, place.line - 1).reduce((n, l) => n + l.length + 1, 0);
  // TeX shows the raw input up to the error; a cut-off start is found as a suffix of the line.
  const cut = place.before.startsWith('...');
  const shown = cut ? place.before.slice(3) : place.before;
  const column = cut ? text.lastIndexOf(shown) + shown.length : shown.length;
  const at = lineStart + Math.min(Math.max(column, 0), text.length);
  for (const m of tex.matchAll(MATH_SPAN)) {
    const start = m.index!;
    const end = start + m[0].length;
    if (start >= at) break;
    if (at > end) continue;
    return `${tex.slice(0, start)}\\folioUnrendered{${escapeLatexText(m[0])}}${tex.slice(end)}`;
  }
  return null;
}
