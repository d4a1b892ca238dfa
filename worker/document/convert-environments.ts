/**
 * The environments the page renderers write (page/render/page-mmd.ts, tables-mmd.ts) as Markdown,
 * for pandoc: itemize, lstlisting and tabular. Pandoc's Markdown reader keeps a LaTeX environment
 * as a raw TeX block, which every format but LaTeX drops: the lists, code and tables of a page
 * (written as environments by default, spec 4.2) would vanish from DOCX, PPTX, HTML and the
 * printed PDF. Each `\item` becomes a `- ` line, four spaces deeper for each enclosing list
 * (`\item[2.]` a numbered item from 2, another label kept as text); a listing becomes a fenced
 * block with its lines as they are; a tabular becomes a pipe table without a header row (its
 * rules dropped, a `\multicolumn` cell its text then empty cells). The environments' own lines
 * (page-mmd.ts writes each on a line of its own) become blank lines around the list; everything
 * else is left alone.
 */
export function environmentsAsMarkdown(mmd: string): string {
  if (!/\\begin\{(itemize|lstlisting|tabular)\}/.test(mmd)) return mmd;
  const out: string[] = [];
  let depth = -1;
  let listing = false;
  let tabular: string[] | undefined;
  for (const line of mmd.split('\n')) {
    const t = line.trim();
    if (tabular || (!listing && t.startsWith('\\begin{tabular}'))) {
      (tabular ??= []).push(line);
      if (!t.includes('\\end{tabular}')) continue;
      out.push('', ...pipeTable(tabular.join('\n')), '');
      tabular = undefined;
    } else if (listing || t === '\\begin{lstlisting}') {
      if (t === '\\begin{lstlisting}' || t === '\\end{lstlisting}') {
        listing = t === '\\begin{lstlisting}';
        out.push('```');
      } else out.push(line);
    } else if (t === '\\begin{itemize}') {
      if (depth < 0) out.push('');
      depth++;
    } else if (t === '\\end{itemize}') {
      depth--;
      if (depth < 0) out.push('');
    } else if (depth >= 0 && t.startsWith('\\item')) {
      const label = /^\\item\s*\[([^\]]*)\]/.exec(t);
      const text = t.slice(label ? label[0].length : '\\item'.length).trimStart();
      // A number label (`\item[3.]`) makes a numbered item from that number; another label stays as text.
      const marker = !label ? '- ' : /^\d+[.)]$/.test(label[1]!) ? `${label[1]} ` : `- ${label[1]} `;
      out.push(`${'    '.repeat(depth)}${marker}${text}`);
    } else out.push(line);
  }
  return out.concat(tabular ?? []).join('\n');
}

/** A tabular's rows as a pipe table whose header is empty (pandoc then writes no header row). */
function pipeTable(tabular: string): string[] {
  const m = /\\begin\{tabular\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}([\s\S]*?)\\end\{tabular\}/.exec(tabular);
  if (!m) return [tabular];
  const align = [...m[1]!.replace(/\{[^{}]*\}/g, '').replace(/[^lcrpmbX]/g, '')].map((c) => (c === 'r' ? '--:' : c === 'c' ? ':-:' : ':--'));
  const rows = split(m[2]!.replace(/\\(hline|toprule|midrule|bottomrule)\b|\\cline\{[^}]*\}/g, ' '), '\\\\')
    .map((row) => split(row, '&').flatMap(cellTexts))
    .filter((cells) => cells.some(Boolean));
  const width = Math.max(align.length, ...rows.map((r) => r.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  return [line([]), `|${Array.from({ length: width }, (_, i) => align[i] ?? ':--').join('|')}|`, ...rows.map(line)];
}

/** A cell's text (a `\multicolumn{n}` cell: its text and n − 1 empty cells), a `|` escaped for the pipe table. */
function cellTexts(cell: string): string[] {
  const multi = /^\\multicolumn\s*\{(\d+)\}\s*\{[^}]*\}\s*\{([\s\S]*)\}$/.exec(cell);
  // Pandoc reads inline maths whole inside a cell: a `|` there stays as written.
  const text = (multi ? multi[2]! : cell)
    .split(/(\\\([\s\S]*?\\\))/)
    .map((part, i) => (i % 2 ? part : part.replace(/\|/g, '\\|')))
    .join('');
  return [text, ...Array<string>(multi ? Number(multi[1]) - 1 : 0).fill('')];
}

/** `text` cut at each `separator` outside braces and inline maths, each piece trimmed and on one line. */
function split(text: string, separator: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let maths = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const two = text.slice(i, i + 2);
    if (two === '\\(' || two === '\\)') maths = two === '\\(';
    if (text.startsWith(separator, i) && depth === 0 && !maths) {
      pieces.push(text.slice(start, i));
      start = i + separator.length;
      i = start - 1;
    } else if (text[i] === '\\') i++;
    else if (text[i] === '{') depth++;
    else if (text[i] === '}') depth--;
  }
  pieces.push(text.slice(start));
  return pieces.map((p) => p.replace(/\s+/g, ' ').trim());
}
