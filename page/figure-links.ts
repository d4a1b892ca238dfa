/**
 * Names, storage keys and links of cropped figures, shared by the pipeline (writes the links),
 * the conversions and the Files API copy step (rewrite them), and the appliance's CDN route
 * (serves them).
 *
 * A crop is named `<prefix>-<page>-<n>` (prefix: the pdf_id, or a private-cloud document id).
 * The MMD refers to it the way the hosted service's MMD does, `![](<cdn_url>/cropped/<name>.jpg?
 * height=&width=&top_left_y=&top_left_x=)`: the query gives the figure's box in pixels of the page
 * rendered at FIGURE_DPI, which parsers of hosted output read to place the figure on its page.
 * Unlike the hosted CDN the file behind the URL already is the crop, so the query is information only.
 */

/** Resolution crops are rendered at; the link's pixel box is measured at it too. */
export const FIGURE_DPI = 150;

/** The figure's box on the page image at FIGURE_DPI, in whole pixels. */
export interface PixelRegion {
  top_left_x: number;
  top_left_y: number;
  width: number;
  height: number;
}

/** Characters a crop name may hold: nothing that could climb out of a folder or break a link. */
const NAME = '[A-Za-z0-9_-]+';
/** A /v3/pdf (and Files API) crop: the pdf_id (core/v3/keys.ts V3_ID), the page and the figure's number on it. */
const V3_FIGURE_FILE = /^(\d{4}_\d{2}_\d{2}_[0-9a-f]{20})-\d{1,5}-\d{1,4}\.jpg$/;

export function figureName(prefix: string, page: number, n: number): string {
  return `${prefix}-${page}-${n}`;
}

/** The folder crops of one /v3/pdf document live in, inside its document folder. */
export const FIGURES_FOLDER = 'images/';

/**
 * The key in Folio's store of a crop file name as the CDN serves it (`<name>.jpg`), or undefined
 * for a name that is not a /v3/pdf crop — the only way the route turns a request into a key.
 */
export function v3FigureKey(file: string): string | undefined {
  const m = V3_FIGURE_FILE.exec(file);
  return m ? `v3/pdf/${m[1]}/${FIGURES_FOLDER}${file}` : undefined;
}

/** `![](<cdnUrl>/cropped/<name>.jpg?height=…&width=…&top_left_y=…&top_left_x=…)`'s URL. */
export function cdnFigureUrl(cdnUrl: string, name: string, r: PixelRegion): string {
  return `${cdnUrl}/cropped/${name}.jpg?height=${r.height}&width=${r.width}&top_left_y=${r.top_left_y}&top_left_x=${r.top_left_x}`;
}

/** The relative link a crop gets beside its document: `images/<name>.jpg` in zips and Files API buckets. */
export const relativeFigurePath = (name: string, folder = FIGURES_FOLDER) => `${folder}${name}.jpg`;

/**
 * A crop URL anywhere in text (MMD link, HTML src attribute, JSON string): any address ending in
 * /cropped/<name>.jpg with an optional query, or a relative one in a folder named images/ or
 * <basename>.images/. HTML escapes the query's & as &amp;, which the query part accepts.
 */
const FIGURE_URL = new RegExp(`(?:[^\\s()"'<>]*/cropped/|[^\\s()"'<>]*?\\bimages/)(${NAME})\\.jpg(?:\\?[^\\s()"'<>]*)?`, 'g');

/** Names of the crops a text links to, in order of first appearance. */
export function linkedFigures(text: string): string[] {
  return [...new Set([...text.matchAll(FIGURE_URL)].map((m) => m[1]!))];
}

/** A rewrite of figure links: the new text and where an old offset (a link boundary) lands in it. */
export interface Relinked {
  text: string;
  offset: (old: number) => number;
}

/**
 * Rewrites every link to one of `names` with `to(name)`; other links stay. Offsets inside a
 * rewritten link map to its start.
 */
export function relinkFigures(text: string, names: ReadonlySet<string>, to: (name: string) => string): Relinked {
  const edits: { start: number; end: number; delta: number }[] = [];
  let out = '';
  let last = 0;
  for (const m of text.matchAll(FIGURE_URL)) {
    if (!names.has(m[1]!)) continue;
    const start = m.index!;
    const end = start + m[0].length;
    const replacement = to(m[1]!);
    out += text.slice(last, start) + replacement;
    edits.push({ start, end, delta: replacement.length - m[0].length });
    last = end;
  }
  out += text.slice(last);
  const offset = (old: number) => {
    let shift = 0;
    for (const e of edits) {
      if (old >= e.end) shift += e.delta;
      else if (old > e.start) return e.start + shift;
      else break;
    }
    return old + shift;
  };
  return { text: out, offset };
}
