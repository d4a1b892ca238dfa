import { type Relinked, relinkFigures } from '../figure-links.js';
import type { TextLine } from '../glyph-lines.js';
import type { RenderedLine } from './page-mmd.js';

/**
 * The entries of lines.json and lines.mmd.json (and of /v3/text's lines_json): per page, the lines
 * found with their region (PDF points for documents, pixels for images; origin top-left).
 * lines.mmd.json lists only lines that produced MMD, each with the MMD it produced and its
 * [mmd_start, mmd_end) offsets in the document.
 */

export interface Region {
  top_left_x: number;
  top_left_y: number;
  width: number;
  height: number;
}

export interface LineEntry {
  id: string;
  type: string;
  text: string;
  region: Region;
  font_size: number;
  conversion_output: boolean;
}

export interface MmdLineEntry extends LineEntry {
  mmd_start: number;
  mmd_end: number;
}

export interface PageLines<L> {
  page: number;
  page_width: number;
  page_height: number;
  lines: L[];
}

/**
 * lines.mmd.json after the document's MMD had its figure links rewritten (`doc`, from
 * relinkFigures on the MMD): offsets moved to the new MMD, and each entry's MMD rewritten alike.
 */
export function relinkLinesMmd(json: string, doc: Relinked, names: ReadonlySet<string>, to: (name: string) => string): string {
  const parsed = JSON.parse(json) as { pages: PageLines<MmdLineEntry>[] };
  for (const page of parsed.pages)
    for (const l of page.lines) {
      l.text = relinkFigures(l.text, names, to).text;
      [l.mmd_start, l.mmd_end] = [doc.offset(l.mmd_start), doc.offset(l.mmd_end)];
    }
  return JSON.stringify(parsed);
}

/**
 * A document page's entries (text-layer-page.ts renders its lines), regions in PDF points. lines.json
 * also lists page info (headers, footers, page numbers) with conversion_output false when it was
 * left out of the MMD.
 */

const r2 = (n: number) => Math.round(n * 100) / 100;

function region(l: TextLine): Region {
  return { top_left_x: r2(l.x0), top_left_y: r2(l.top), width: r2(l.x1 - l.x0), height: r2(l.bottom - l.top) };
}

/** Builds both page entries; `offset` is where the page's MMD starts in the document MMD. */
export function pageLines(
  page: number,
  size: { width: number; height: number },
  rendered: RenderedLine<TextLine>[],
  pageInfo: TextLine[],
  offset: number,
): { lines: PageLines<LineEntry>; mmdLines: PageLines<MmdLineEntry> } {
  const head = { page, page_width: r2(size.width), page_height: r2(size.height) };
  // Reading order: headers, then the body as rendered, then footers.
  const info = (top: boolean) =>
    pageInfo.filter((l) => l.top < size.height / 2 === top).map((line) => ({ line, rendered: undefined as RenderedLine<TextLine> | undefined }));
  const all = [...info(true), ...rendered.map((r) => ({ line: r.line, rendered: r as RenderedLine<TextLine> | undefined })), ...info(false)];
  const lines: LineEntry[] = [];
  const mmdLines: MmdLineEntry[] = [];
  for (const [i, { line, rendered: r }] of all.entries()) {
    const base: LineEntry = {
      id: `${page}-${i + 1}`,
      type: r?.type ?? 'page_info',
      text: line.text,
      region: region(line),
      font_size: r2(line.size),
      conversion_output: r !== undefined,
    };
    lines.push(base);
    if (r) mmdLines.push({ ...base, text: r.mmd, mmd_start: offset + r.start, mmd_end: offset + r.end });
  }
  return { lines: { ...head, lines }, mmdLines: { ...head, lines: mmdLines } };
}

/** An empty entry for a page that produced no lines (blank, scanned, failed). */
export function emptyPageLines(page: number, size: { width: number; height: number }): PageLines<never> {
  return { page, page_width: r2(size.width), page_height: r2(size.height), lines: [] };
}
