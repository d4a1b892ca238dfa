import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { linkedFigures, relativeFigurePath, relinkFigures } from '../../page/figure-links.js';

/**
 * Figures in conversions. The MMD links crops by CDN URL; a converter must not fetch them over
 * HTTP (the appliance may not be reachable from its own workers, and a URL is not a file), so the
 * crops are read from storage into the scratch folder's images/ and the MMD every converter reads
 * links them there. Zips carry images/ beside the document; docx, pptx and the PDFs embed them.
 */

/** Reads one crop by name from where the document's crops are kept (Folio's store, an output bucket). */
export interface FigureFiles {
  read(name: string): Promise<Buffer>;
}

/** The scratch copy of the MMD with its original, CDN-linked text kept for the formats that link out (md, html). */
export const LINKED_SOURCE_NAME = 'document.linked.mmd';

/**
 * Copies the crops `mmd` links into `dir`/images/ and returns the MMD with those links made
 * relative, and the names copied. A crop that cannot be read keeps its URL.
 */
export async function stageFigures(mmd: string, dir: string, files: FigureFiles | undefined): Promise<{ mmd: string; names: string[] }> {
  if (!files) return { mmd, names: [] };
  const names: string[] = [];
  for (const name of linkedFigures(mmd)) {
    const jpeg = await files.read(name).catch(() => undefined);
    if (!jpeg) continue;
    await mkdir(join(dir, 'images'), { recursive: true });
    await writeFile(join(dir, relativeFigurePath(name)), jpeg);
    names.push(name);
  }
  return { mmd: relinkFigures(mmd, new Set(names), (n) => relativeFigurePath(n)).text, names };
}

/** The archive paths of staged crops, for zips. */
export const figurePaths = (names: string[]) => names.map((n) => relativeFigurePath(n));

/**
 * Replaces `images/<name>.jpg` sources in an HTML file of `dir` with data: URIs, for the printed
 * PDF whose page may load nothing but data: (convert-html-pdf.ts).
 */
export async function inlineFigures(dir: string, htmlName: string, names: string[]): Promise<void> {
  if (!names.length) return;
  const path = join(dir, htmlName);
  const html = await readFile(path, 'utf8');
  const uris = new Map<string, string>();
  for (const n of names) uris.set(n, `data:image/jpeg;base64,${(await readFile(join(dir, relativeFigurePath(n)))).toString('base64')}`);
  await writeFile(path, relinkFigures(html, new Set(names), (n) => uris.get(n)!).text);
}

/**
 * Turns every Markdown image that is not a staged crop into a plain link. pandoc's docx, pptx
 * and embedding writers fetch image sources — URLs (a server-side request to wherever the MMD
 * points) and local paths (a file of the worker's disk inside the output) — so the MMD a
 * converter reads may only show the crops copied into its own images/ folder.
 */
export function unfetchableImages(mmd: string, staged: string[]): string {
  const allowed = new Set(staged.map((n) => relativeFigurePath(n)));
  return mmd
    .replace(/!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?([^)]*)\)/g, (whole, alt: string, target: string, rest: string) =>
      allowed.has(target) ? whole : `[${alt}](${target}${rest})`,
    )
    .replace(/!\[([^\]]*)\]\[([^\]]*)\]/g, '[$1][$2]');
}
