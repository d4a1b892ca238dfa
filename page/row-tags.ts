/**
 * Equation numbers on the rows of one multi-row display. Born-digital pages find each number
 * level with its row in the text layer (worker/document/pipeline/math-latex.ts), page images beside
 * each row of ink (page/processors/display-rows.ts); both write them the same way.
 */

/** Top-level rows: split at each `\\` outside braces and nested environments. */
export function splitRows(text: string): string[] {
  const rows: string[] = [];
  let depth = 0;
  let start = 0;
  const tokens = /\\begin\{[^}]*\}|\\end\{[^}]*\}|\\\\(\s*\[[^\]]*\])?|\\.|[{}]/gu;
  for (const match of text.matchAll(tokens)) {
    const token = match[0];
    if (token === '{' || token.startsWith('\\begin')) depth++;
    else if (token === '}' || token.startsWith('\\end')) depth--;
    else if (token.startsWith('\\\\') && depth === 0) {
      rows.push(text.slice(start, match.index));
      start = match.index + token.length;
    }
  }
  rows.push(text.slice(start));
  return rows.map((row) => row.trim());
}

/** The environments that number their rows, for the blocks the recognisers write. */
const TAGGED_ENVIRONMENT: Record<string, string> = { aligned: 'align*', gathered: 'gather*' };

/**
 * An `aligned` or `gathered` block with each row's numbers as `\tag{…}` at the row's end, in
 * `align*`/`gather*`; `rowTags[i]` are row i's numbers (none: no tag). When the LaTeX is not such a
 * block, or its rows are not the rows numbered, all the numbers are one tag for the display.
 */
export function tagEachRow(latex: string, rowTags: Array<readonly string[] | undefined>): string {
  const match = /^\\begin\{(aligned|gathered)\}([\s\S]*)\\end\{\1\}$/.exec(latex);
  const rows = match ? splitRows(match[2]!) : [];
  if (!match || rows.length !== rowTags.length) return `${latex} \\tag{${rowTags.flatMap((tags) => tags ?? []).join(', ')}}`;
  const tagged = rows.map((row, i) => (rowTags[i]?.length ? `${row} \\tag{${rowTags[i]!.join(', ')}}` : row));
  const environment = TAGGED_ENVIRONMENT[match[1]!]!;
  return `\\begin{${environment}}${tagged.join(' \\\\ ')}\\end{${environment}}`;
}
