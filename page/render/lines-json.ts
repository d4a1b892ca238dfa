import { type Relinked, relinkFigures } from '../figure-links.js';

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
