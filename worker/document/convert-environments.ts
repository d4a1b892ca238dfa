/**
 * MMD's itemize and lstlisting environments as Markdown, for pandoc. Pandoc's Markdown reader keeps
 * a LaTeX environment as a raw TeX block, which every format but LaTeX drops: the lists and code of
 * an image or a scanned page (written as environments by default, spec 4.2) would vanish from
 * DOCX, PPTX, HTML and the printed PDF. Each `\item` becomes a `- ` line, four spaces deeper for
 * each enclosing list (`\item[2.]` a numbered item from 2, another label kept as text); a listing becomes a fenced
 * block with its lines as they are. The environments' own lines (page-mmd.ts writes each on a line
 * of its own) become blank lines around the list; everything else is left alone.
 */
export function environmentsAsMarkdown(mmd: string): string {
  if (!mmd.includes('\\begin{itemize}') && !mmd.includes('\\begin{lstlisting}')) return mmd;
  const out: string[] = [];
  let depth = -1;
  let listing = false;
  for (const line of mmd.split('\n')) {
    const t = line.trim();
    if (listing || t === '\\begin{lstlisting}') {
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
  return out.join('\n');
}
