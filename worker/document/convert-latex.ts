import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UNRENDERED_MACRO, errorPlace, unrenderFormulaAt } from './convert-latex-repair.js';
import { CONVERT_TIMEOUT_MS, pandoc } from './convert-pandoc.js';
import { FormatError, hasTool, runTool } from './convert-tool.js';
import { UNICODE_TO_LATEX } from './convert-unicode.js';

/** The .tex of tex.zip and latex.pdf, written beside the MMD. */
export const TEX_NAME = 'document.tex';
const HEADER_NAME = 'folio-header.tex';
/** pdflatex passes: a second one only when the log asks for it (longtable widths, references). */
const MAX_PASSES = 2;
/** Formulas shown as source before giving up: bounds the compile time of a badly read document. */
export const MAX_UNRENDERED_FORMULAS = 20;

/**
 * Preamble lines that keep pdflatex from dying on text it has no glyph for. Characters MMD
 * carries often (Greek, maths operators, PDF ligatures) get a real LaTeX spelling, declared only
 * when the document uses them; any other character LaTeX does not know prints a small boxed "?"
 * instead of stopping the compile with "Unicode character … not set up for use with LaTeX".
 */
export function unicodeHeader(mmd: string): string {
  const used = [...new Set(mmd.replace(/[\x00-\x7f]/g, ''))].sort();
  const declared = used
    .filter((ch) => UNICODE_TO_LATEX[ch] !== undefined)
    .map((ch) => `\\DeclareUnicodeCharacter{${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}{${UNICODE_TO_LATEX[ch]}}`);
  return [
    '\\makeatletter',
    '% Folio: unknown characters print as a boxed ? rather than failing the compile.',
    '\\DeclareRobustCommand\\folio@unknownchar{\\mbox{\\fboxsep=0.5pt\\fbox{\\scriptsize ?}}}',
    '\\def\\UTFviii@undefined@err#1{\\folio@unknownchar}',
    '\\def\\TextSymbolUnavailable#1{\\folio@unknownchar}',
    '\\makeatother',
    UNRENDERED_MACRO,
    ...declared,
    '',
  ].join('\n');
}

/** Writes document.tex (pandoc's standalone LaTeX plus the Unicode header) in `dir`; returns it. */
export async function writeLatexSource(mmd: string, dir: string): Promise<Buffer> {
  await writeFile(join(dir, HEADER_NAME), unicodeHeader(mmd));
  return pandoc(dir, 'latex', TEX_NAME, ['--standalone', '--include-in-header', HEADER_NAME]);
}

/** What came of compiling document.tex: the PDF, or why there is none. */
export type LatexBuild = { pdf: Buffer; unrendered: number } | { failure: FormatError };

/**
 * Compiles `texName` in `dir` with pdflatex. No shell escape, no stopping for input, no file
 * read outside `dir`; the first error ends a run. A run that stops inside a formula has that
 * formula shown as its source in the .tex itself (convert-latex-repair.ts) and runs again, up to
 * MAX_UNRENDERED_FORMULAS times, so the tex.zip made afterwards compiles too. Any other error is
 * a failure carrying the LaTeX error lines, never an empty or partial file.
 */
export async function compileLatex(dir: string, texName = TEX_NAME): Promise<LatexBuild> {
  if (!hasTool('pdflatex')) return { failure: new FormatError('unsupported_format', 'This build cannot make latex.pdf: pdflatex is not installed') };
  const texPath = join(dir, texName);
  let unrendered = 0;
  for (let pass = 1; pass <= MAX_PASSES;) {
    const run = await pdflatex(dir, texName);
    if (run.timedOut) return { failure: new FormatError('sys_exception', `pdflatex took longer than ${CONVERT_TIMEOUT_MS / 1000} s`) };
    if (run.code !== 0) {
      const place = errorPlace(run.output, texName);
      const repaired = place && unrendered < MAX_UNRENDERED_FORMULAS ? unrenderFormulaAt(await readFile(texPath, 'utf8'), place) : null;
      if (repaired === null) return { failure: new FormatError('sys_exception', `pdflatex could not compile the document: ${latexError(run.output)}`) };
      await writeFile(texPath, repaired);
      unrendered++;
      continue;
    }
    if (!/Rerun to get|Rerun LaTeX/.test(run.output)) break;
    pass++;
  }
  // An MMD with nothing to typeset gives "No pages of output" and no file, with exit code 0.
  const pdf = await readFile(join(dir, texName.replace(/\.tex$/, '.pdf'))).catch(() => null);
  if (!pdf?.subarray(0, 5).equals(Buffer.from('%PDF-')))
    return { failure: new FormatError('sys_exception', 'pdflatex wrote no PDF: the document has nothing to typeset') };
  return { pdf, unrendered };
}

function pdflatex(dir: string, texName: string) {
  const args = ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', '-file-line-error', texName];
  // openin_any/openout_any=p: no \input{/etc/passwd}, no writes outside the scratch folder.
  const env = { ...process.env, openout_any: 'p', openin_any: 'p' };
  return runTool('pdflatex', args, { cwd: dir, timeoutMs: CONVERT_TIMEOUT_MS, env });
}

/** The first LaTeX error of a log ("file:line: message" and the offending input line). */
export function latexError(log: string): string {
  const lines = log.split('\n');
  const at = lines.findIndex((l) => /^(\S+:\d+: |! )/.test(l));
  if (at < 0)
    return lines
      .filter((l) => l.trim())
      .slice(-2)
      .join(' ')
      .trim();
  return lines
    .slice(at, at + 3)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
    .slice(0, 400);
}
