import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Maths of office inputs read from the file itself. Word equations (OMML in DOCX, and the MathML of
 * an EPUB, which pandoc turns into OMML on its way to DOCX) are not drawn by Debian's headless
 * LibreOffice, so the PDF it lays out has a gap where each formula stood. pandoc reads those
 * formulas into LaTeX exactly; this module lists the document's words and formulas in order and
 * puts each formula back into the page MMD read from the PDF, at the gap between the words around it.
 */

export type SourceToken =
  | { kind: 'word'; key: string; spaceBefore: boolean; breakBefore: boolean }
  | { kind: 'math'; latex: string; display: boolean; spaceBefore: boolean; breakBefore: boolean };

/** pandoc's input format for each document type whose maths it reads. */
const PANDOC_READERS: Record<string, string> = { docx: 'docx', epub: 'epub' };

/** The words and formulas of `path`, in reading order; undefined when the type has no maths pandoc reads or none is present. */
export async function readSourceMaths(path: string, type: string, timeoutMs: number): Promise<SourceToken[] | undefined> {
  const from = PANDOC_READERS[type];
  if (!from) return undefined;
  let json: string;
  try {
    ({ stdout: json } = await run('pandoc', ['-f', from, '-t', 'json', path], { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024 }));
  } catch {
    // A file LibreOffice lays out but pandoc cannot parse is still read from its PDF, without the
    // formulas LibreOffice does not draw: the same as before this module existed.
    return undefined;
  }
  const tokens = pandocTokens(JSON.parse(json) as { blocks: unknown[] });
  return tokens.some((t) => t.kind === 'math') ? tokens : undefined;
}

/** Inline elements that separate words; blocks start a new paragraph. */
const SPACES = new Set(['Space', 'SoftBreak', 'LineBreak']);
const BLOCKS = new Set(['Para', 'Plain', 'Header', 'CodeBlock', 'BlockQuote', 'LineBlock', 'HorizontalRule', 'Table', 'BulletList', 'OrderedList', 'DefinitionList', 'Div']);

/** Walks pandoc's JSON AST (any version: it only relies on `t`/`c` nodes) into words and formulas. */
export function pandocTokens(doc: { blocks: unknown[] }): SourceToken[] {
  const out: SourceToken[] = [];
  let space = false;
  let brk = true;
  const word = (text: string) => {
    for (const part of text.split(/\s+/).filter(Boolean)) {
      out.push({ kind: 'word', key: tokenKey(part), spaceBefore: space || brk, breakBefore: brk });
      space = true;
      brk = false;
    }
    space = /\s$/.test(text);
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const { t, c } = node as { t?: string; c?: unknown };
    if (t === undefined) return;
    if (t === 'Note') return; // footnotes are laid out at the foot of the page, not where they are referenced
    if (t === 'Str') return word(String(c));
    if (t === 'Code') return word(String((c as unknown[])[1]));
    if (t === 'CodeBlock') return (brk = true), word(String((c as unknown[])[1])), void (brk = true);
    if (SPACES.has(t)) return void (space = true);
    if (t === 'Math') {
      const [kind, latex] = c as [{ t: string }, string];
      const display = kind.t === 'DisplayMath';
      out.push({ kind: 'math', latex: compactLatex(latex), display, spaceBefore: space || brk, breakBefore: brk || display });
      space = false;
      brk = display;
      return;
    }
    if (BLOCKS.has(t)) brk = true;
    walk(c);
    if (BLOCKS.has(t)) brk = true;
  };
  walk(doc.blocks);
  return out;
}

/** What a word is matched on: letters and digits, case-folded; a token of punctuation alone keeps its characters. */
export function tokenKey(text: string): string {
  const norm = text.normalize('NFKC').toLowerCase();
  const letters = norm.replace(/[^\p{L}\p{N}]/gu, '');
  return letters || norm;
}

/** pandoc writes `E = mc^{2}`; Folio writes LaTeX without spaces that change nothing (`E=mc^{2}`). */
export function compactLatex(latex: string): string {
  // A space matters only where it ends a control word before a letter (`\alpha b`).
  return latex.trim().replace(/\s+/g, (_m, at: number, all: string) => (/\\[a-zA-Z]+$/.test(all.slice(0, at)) && /^\s+[a-zA-Z]/.test(all.slice(at)) ? ' ' : ''));
}
