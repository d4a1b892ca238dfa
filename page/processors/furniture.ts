import { boxToUpright } from '../geometry.js';
import type { PageLine, PageRecognition } from '../model.js';

/**
 * Page furniture: running headers, running footers and page numbers. Hosted MMD leaves them out
 * (include_page_info false); lines.json still lists them as page_info. One rule for every page:
 * born-digital lines (page/processors/text-layer-blocks.ts), scanned ones
 * (worker/document/pipeline/scanned-page.ts) and an image sent to /v3/text with
 * include_page_info false (page/assemble.ts) alike, in whatever unit their page measures.
 */

/** What furniture is told by: a line's text and where its ink starts and ends down the page. */
export interface FurnitureLine {
  top: number;
  bottom: number;
  text: string;
}

/** Header and footer bands, as a fraction of the page height. */
const PAGE_INFO_BAND = 0.08;
/**
 * A page number may sit this far into the page (LaTeX's article class puts it about 17 % above
 * the foot of an A4 page) when it is the outermost line and stands apart from the body.
 */
const PAGE_NUMBER_ZONE = 0.22;
/** Ink gap between such a page number and the nearest body line, in body-text ems (text lines leave about 0.2 em). */
const PAGE_NUMBER_GAP_EM = 1.5;
const PAGE_NUMBER = /^(page\s+)?[-–]?\s*\d{1,4}\s*[-–]?(\s*(of|\/)\s*\d{1,4})?$/i;
/** Lines with more words than this are body text, wherever they sit. */
const MAX_FURNITURE_WORDS = 12;

/**
 * Remembers header and footer candidates across the pages of one document, digits folded, so a
 * running header is recognised by repetition even when it sits close to the body.
 */
export class RunningLines {
  private readonly seen = new Set<string>();
  has(line: FurnitureLine): boolean {
    return this.seen.has(RunningLines.key(line));
  }
  add(line: FurnitureLine): void {
    this.seen.add(RunningLines.key(line));
  }
  private static key(line: FurnitureLine): string {
    return line.text.replace(/\d+/g, '#').toLowerCase();
  }
}

/**
 * The page's furniture lines, and the page's band lines remembered in `running` for the pages after.
 * @param keep include_page_info: nothing is furniture, but band lines are still remembered
 */
export function pageFurniture<L extends FurnitureLine>(lines: L[], height: number, body: number, running: RunningLines, keep: boolean): L[] {
  const found = keep ? [] : lines.filter((l) => inBandFurniture(l, lines, height, body, running) || isLonePageNumber(l, lines, height, body));
  for (const l of lines) if (isBand(l, height)) running.add(l);
  return found;
}

/**
 * The furniture among a recognised page image's lines, told from their upright boxes in pixels:
 * a text line's box height stands for the body size.
 */
export function recognisedFurniture(read: PageRecognition, running: RunningLines, keep: boolean): PageLine[] {
  if (read.lines.length < 2) return [];
  const rotation = read.rotation ?? 0;
  const [width, height] = Math.abs(rotation) === 90 ? [read.height, read.width] : [read.width, read.height];
  const lines = read.lines.map((line) => {
    const box = boxToUpright(line.box, rotation, width, height);
    // A page number the text model missed is still read by the maths engine.
    return { line, top: box.y, bottom: box.y + box.height, height: box.height, text: line.text || (line.math?.latex ?? '') };
  });
  const heights = lines
    .filter((l) => l.line.kind !== 'math')
    .map((l) => l.height)
    .sort((a, b) => a - b);
  const body = heights[Math.floor(heights.length / 2)] ?? 0;
  return pageFurniture(lines, height, body, running, keep).map((l) => l.line);
}

const isBand = (l: FurnitureLine, h: number) => l.bottom < h * PAGE_INFO_BAND || l.top > h * (1 - PAGE_INFO_BAND);

/** A line in the top or bottom band that is a page number, repeats from an earlier page, or stands apart from the body. */
function inBandFurniture(line: FurnitureLine, lines: FurnitureLine[], height: number, body: number, running: RunningLines): boolean {
  const inTop = line.bottom < height * PAGE_INFO_BAND;
  const inBottom = line.top > height * (1 - PAGE_INFO_BAND);
  if (!inTop && !inBottom) return false;
  if (PAGE_NUMBER.test(line.text.trim()) || running.has(line)) return true;
  if (line.text.split(' ').length > MAX_FURNITURE_WORDS) return false;
  return lines.every((o) => o === line || (inTop ? o.top - line.bottom > body : line.top - o.bottom > body) || isBand(o, height));
}

/**
 * A page number outside the narrow bands: in the outer part of the page, with no line beyond it
 * and a clear gap to the body (a table's last row of numbers has its rows close above it).
 */
function isLonePageNumber(line: FurnitureLine, lines: FurnitureLine[], height: number, body: number): boolean {
  if (!PAGE_NUMBER.test(line.text.trim())) return false;
  const atFoot = line.top > height * (1 - PAGE_NUMBER_ZONE);
  const atHead = line.bottom < height * PAGE_NUMBER_ZONE;
  if (!atFoot && !atHead) return false;
  const gap = PAGE_NUMBER_GAP_EM * body;
  return lines.every((o) => o === line || isBand(o, height) || (atFoot ? line.top - o.bottom > gap : o.top - line.bottom > gap));
}
