import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { environmentsAsMarkdown } from './convert-environments.js';
import { FormatError, runTool } from './convert-tool.js';

/** pandoc reads MMD's \( \) and \[ \] maths with this reader. */
export const PANDOC_FROM = 'markdown+tex_math_single_backslash+tex_math_dollars';
/** Any one converter step (pandoc, pdflatex pass, Chromium print) must end within this. */
export const CONVERT_TIMEOUT_MS = 120_000;
/** The scratch name of the MMD every step reads. */
export const SOURCE_NAME = 'document.mmd';

/**
 * Runs pandoc on the MMD in `dir` (`source`, by default SOURCE_NAME) and returns the file it
 * wrote. `from` narrows the reader (the printed HTML turns raw HTML off, see convert-html-pdf.ts).
 * Lists and listings are handed to pandoc as Markdown (convert-environments.ts), so no format
 * loses them.
 */
export async function pandoc(dir: string, to: string, out: string, extra: string[] = [], from = PANDOC_FROM, source = SOURCE_NAME): Promise<Buffer> {
  const mmd = await readFile(join(dir, source), 'utf8');
  const markdown = environmentsAsMarkdown(mmd);
  const input = markdown === mmd ? source : `${source}.pandoc.md`;
  if (input !== source) await writeFile(join(dir, input), markdown);
  const run = await runTool('pandoc', ['-f', from, '-t', to, ...extra, '-o', out, input], { cwd: dir, timeoutMs: CONVERT_TIMEOUT_MS });
  if (run.code !== 0) {
    const why = run.timedOut ? `took longer than ${CONVERT_TIMEOUT_MS / 1000} s` : run.output.trim().split('\n').slice(-3).join(' ');
    throw new FormatError('sys_exception', `pandoc could not write ${to}: ${why}`);
  }
  return readFile(join(dir, out));
}

/** Zips files of `dir` (paths relative to it, so images/x.jpg stays in images/) into `name` with Debian's zip and returns the archive. */
export async function zipFiles(dir: string, name: string, files: string[]): Promise<Buffer> {
  // -X: no extra attributes, so the same files give the same archive.
  const run = await runTool('zip', ['-q', '-X', name, ...files], { cwd: dir, timeoutMs: CONVERT_TIMEOUT_MS });
  if (run.code !== 0) throw new FormatError('sys_exception', `zip failed: ${run.output.trim()}`);
  return readFile(join(dir, name));
}

/** Zips the whole tree under `root` (paths kept, relative to it) into `archive`; returns it. */
export async function zipTree(root: string, archive: string): Promise<Buffer> {
  const run = await runTool('zip', ['-q', '-X', '-D', '-r', archive, '.'], { cwd: root, timeoutMs: CONVERT_TIMEOUT_MS });
  if (run.code !== 0) throw new FormatError('sys_exception', `zip failed: ${run.output.trim()}`);
  return readFile(archive);
}
