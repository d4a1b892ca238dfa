import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ApiError } from '../../../core/errors.js';
import { FORMULA_MARKER, type OdtFormula, readOdt } from './odt-maths.js';

const run = promisify(execFile);

/**
 * Maths of office inputs read from the file itself. Word equations (OMML in DOCX, and the MathML of
 * an EPUB, which pandoc turns into OMML on its way to DOCX) and Writer formula objects (MathML in
 * an ODT) are not drawn by Debian's headless LibreOffice, so the PDF it lays out has a gap where
 * each formula stood. pandoc reads those formulas into LaTeX exactly; this module lists the
 * document's words and formulas in order, and office-maths-place.ts puts each formula back into the
 * page MMD read from the PDF, at the gap between the words around it.
 */

export type SourceToken =
  | { kind: 'word'; key: string; spaceBefore: boolean; breakBefore: boolean }
  | { kind: 'math'; latex: string; display: boolean; spaceBefore: boolean; breakBefore: boolean };

/** pandoc's input format for each document type whose maths it reads directly. */
const PANDOC_READERS: Record<string, string> = { docx: 'docx', epub: 'epub' };

/** The words and formulas of `path`, in reading order; undefined when the type has no maths Folio reads or none is present. */
export async function readSourceMaths(path: string, type: string, timeoutMs: number): Promise<SourceToken[] | undefined> {
  // A file LibreOffice lays out but pandoc cannot parse is still read from its PDF, without the
  // formulas LibreOffice does not draw: the same as before this module existed.
  const read = async (): Promise<SourceToken[] | undefined> => {
    if (type === 'odt') {
      const odt = await readOdt(path, timeoutMs);
      return odt && pandocTokens(JSON.parse(odt.json) as { blocks: unknown[] }, odt.formulas);
    }
    const from = PANDOC_READERS[type];
    if (!from) return undefined;
    const { stdout } = await run('pandoc', ['-f', from, '-t', 'json', path], { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024 });
    return pandocTokens(JSON.parse(stdout) as { blocks: unknown[] });
  };
  const tokens = await read().catch((err: unknown) => {
    if (err instanceof ApiError) throw err; // a zip bomb is refused, not read around
    return undefined;
  });
  return tokens?.some((t) => t.kind === 'math') ? tokens : undefined;
}

/** Inline elements that separate words; blocks start a new paragraph. */
const SPACES = new Set(['Space', 'SoftBreak', 'LineBreak']);
const BLOCKS = new Set([
  'Para',
  'Plain',
  'Header',
  'CodeBlock',
  'BlockQuote',
  'LineBlock',
  'HorizontalRule',
  'Table',
  'BulletList',
  'OrderedList',
  'DefinitionList',
  'Div',
]);

/**
 * Walks pandoc's JSON AST (any version: it only relies on `t`/`c` nodes) into words and formulas.
 * `formulas` replace the marker words an ODT's formula frames became (odt-maths.ts); such a formula
 * alone in its paragraph is a display (Writer has no other notion of one).
 */
export function pandocTokens(doc: { blocks: unknown[] }, formulas: OdtFormula[] = []): SourceToken[] {
  const out: SourceToken[] = [];
  let space = false;
  let brk = true;
  const math = (latex: string, display: boolean) => {
    out.push({ kind: 'math', latex: compactLatex(latex), display, spaceBefore: space || brk, breakBefore: brk || display });
    space = false;
    brk = display;
  };
  const word = (text: string) => {
    for (const part of text.split(/\s+/).filter(Boolean)) {
      let at = 0;
      for (const m of part.matchAll(FORMULA_MARKER)) {
        if (m.index! > at) push(part.slice(at, m.index));
        const f = formulas[Number(m[1])];
        if (f?.latex) math(f.latex, f.display);
        at = m.index! + m[0].length;
      }
      if (at < part.length) push(part.slice(at));
      space = true;
    }
    space = /\s$/.test(text);
  };
  const push = (text: string) => {
    out.push({ kind: 'word', key: tokenKey(text), spaceBefore: space || brk, breakBefore: brk });
    space = false;
    brk = false;
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const { t, c } = node as { t?: string; c?: unknown };
    if (t === undefined) return;
    if (t === 'Note') return; // footnotes are laid out at the foot of the page, not where they are referenced
    if (t === 'Str') return word(String(c));
    if (t === 'Code') return word(String((c as unknown[])[1]));
    if (SPACES.has(t)) return void (space = true);
    if (t === 'Math') {
      const [kind, latex] = c as [{ t: string }, string];
      return math(latex, kind.t === 'DisplayMath');
    }
    if (BLOCKS.has(t)) brk = true;
    if (t === 'CodeBlock') word(String((c as unknown[])[1]));
    else walk(c);
    if (BLOCKS.has(t)) brk = true;
  };
  walk(doc.blocks);
  if (!formulas.length) return out;
  return out.map((t, i) => (t.kind === 'math' && t.breakBefore && (out[i + 1]?.breakBefore ?? true) ? { ...t, display: true } : t));
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
  return latex
    .trim()
    .replace(/\s+/g, (_m, at: number, all: string) => (/\\[a-zA-Z]+$/.test(all.slice(0, at)) && /^\s+[a-zA-Z]/.test(all.slice(at)) ? ' ' : ''));
}
