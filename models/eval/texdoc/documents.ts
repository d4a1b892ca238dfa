import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { documentText, extractDisplays, type SourceDisplay } from './displays.js';

/**
 * The real-document set: every LaTeX source shipped by the installed `texlive-*-doc` packages
 * (the Makefile's EVAL_PACKAGES) that sits beside the PDF made from it (same base name), holds at
 * least MIN_DISPLAYS scorable display equations (displays.ts) and has at most MAX_PAGES pages;
 * a display another document of the set already holds (same environment, same text) is not repeated.
 * amsmath's own documents (testmath, amsldoc, subeqn) are held out for the final check and never
 * read here, and a few documents whose packages change what standard commands print are left out
 * (SOURCE_IS_NOT_PRINT).
 */

export const TEXDOC_ROOT = '/usr/share/doc/texlive-doc';
const MIN_DISPLAYS = 3;
const MAX_PAGES = 80;
const HELD_OUT = /^(testmath|amsldoc|subeqn)\./u;
/**
 * Documents whose packages print standard commands as something else, so their source is not
 * what the page shows: nath (redraws delimiters by nesting depth), fnspe (its interval and bracket
 * conventions), newcommand (`\[…\]` are grammar brackets there), bhcexam (its class prints
 * `\leq` as `\leqslant`), statex and statex2 (re-define the accents `\=` and `\^` and give `\Gamma` an argument
 * in brackets that they print in parentheses, as their examples say).
 */
const SOURCE_IS_NOT_PRINT = /^latex\/(nath|fnspe|newcommand|statex2?)\/|^xelatex\/bhcexam\//u;

export interface RealDocument {
  /** The source's path under TEXDOC_ROOT, e.g. `latex/lineno/linenoamsmathdemo.tex.gz`. */
  name: string;
  pdfPath: string;
  pages: number;
  displays: SourceDisplay[];
}

const execFileAsync = promisify(execFile);

async function pageCount(pdfPath: string): Promise<number> {
  try {
    const { stdout } = await execFileAsync('pdfinfo', [pdfPath]);
    return Number(/^Pages:\s+(\d+)/mu.exec(stdout)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function sourceText(path: string): Promise<string> {
  const raw = await readFile(path);
  // Manuals are ASCII, Latin-1 or UTF-8: UTF-8 when the bytes are valid UTF-8 (a prime `′` or a
  // CJK word in a display is then that character), else Latin-1, which never fails.
  const bytes = path.endsWith('.gz') ? gunzipSync(raw) : raw;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** Walks TEXDOC_ROOT (sorted, so the set's order is stable) and returns the documents of the set. */
export async function findRealDocuments(root = TEXDOC_ROOT): Promise<RealDocument[]> {
  const documents: RealDocument[] = [];
  // Class samples repeat each other (acmart's fourteen, revtex 4 and 4-1): a display already in
  // the set, in the same environment, is not scored twice.
  const seen = new Set<string>();
  const walk = async (folder: string): Promise<void> => {
    const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    const pdfs = new Set(entries.filter((e) => e.name.endsWith('.pdf')).map((e) => e.name.slice(0, -4)));
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      const match = /^(.*)\.(tex|dtx)(\.gz)?$/u.exec(entry.name);
      if (!match || !pdfs.has(match[1]!) || HELD_OUT.test(entry.name) || SOURCE_IS_NOT_PRINT.test(path.slice(root.length + 1))) continue;
      const all = extractDisplays(documentText(await sourceText(path), match[2] === 'dtx'));
      if (all.length < MIN_DISPLAYS) continue;
      const displays = all.filter((d) => !seen.has(`${d.environment}\n${d.body}`));
      if (displays.length === 0) continue;
      const pdfPath = join(folder, `${match[1]}.pdf`);
      const pages = await pageCount(pdfPath);
      if (pages === 0 || pages > MAX_PAGES) continue;
      for (const d of displays) seen.add(`${d.environment}\n${d.body}`);
      documents.push({ name: path.slice(root.length + 1), pdfPath, pages, displays });
    }
  };
  await walk(root);
  return documents;
}
