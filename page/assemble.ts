import { boxToUpright } from './geometry.js';
import type { PageLine, PageRecognition } from './model.js';
import { excludedAlphabets } from '../core/options/alphabets.js';
import { type AlphabetsFound, detectedAlphabets, withoutAlphabets, withoutAlphabetsText } from './processors/alphabets.js';
import { type Block, textBlocks } from './processors/blocks.js';
import { columnOrder } from './processors/columns.js';
import { joinDisplayRows, textLineHeight } from './processors/display-rows.js';
import type { MonospaceFit } from './processors/code-lines.js';
import { punctuationWidth } from './processors/fullwidth.js';
import { recognisedFurniture, RunningLines } from './processors/furniture.js';
import { mapRecognitionText } from './processors/text-map.js';
import { BULLET_MARKER, type Grid } from './blocks-model.js';

/**
 * Page assembly of a recognised image: what turns recognised lines into a page. It runs in the
 * workers — the inference worker for an image sent to /v3/text or /v3/batch, the document worker
 * for a scanned page — and its answer travels as JSON, so blocks name their lines by index.
 * The appliance only renders an assembled page (page/render/image-page.ts).
 */

/** The changes a request asks for before assembly (4.2 alphabets_allowed, fullwidth_punctuation, include_page_info). */
export interface AssemblyOptions {
  /**
   * include_page_info false (or a list of subtypes, none of which is told apart): running
   * headers, footers and page numbers are left out of the page (page/processors/furniture.ts).
   */
  dropPageInfo?: boolean;
  /** alphabets_allowed as the request gave it (checked there): the alphabets set to false are left out. */
  alphabetsAllowed?: Record<string, boolean>;
  /** true, false, or null/absent for the form that suits each line. */
  fullwidthPunctuation?: boolean | null;
}

/**
 * The same changes on a text layer's words (a born-digital page): the excluded alphabets left
 * out, and the punctuation made fullwidth or halfwidth when the request says which. A text
 * layer's characters are the file's own, so null (the spec's "chosen from content") keeps the
 * punctuation the file was written with. Undefined when nothing changes.
 */
export function textLayerWords(opts: AssemblyOptions): ((word: string) => string) | undefined {
  const excluded = excludedAlphabets(opts.alphabetsAllowed);
  const width = opts.fullwidthPunctuation;
  if (!excluded.length && typeof width !== 'boolean') return undefined;
  return (word) => {
    const kept = excluded.length ? withoutAlphabetsText(word, excluded) : word;
    return typeof width === 'boolean' ? punctuationWidth(kept, width) : kept;
  };
}

/**
 * A block with its lines as indices into the page's lines (reading order): the form an assembled
 * page travels and is stored in. Its kinds keep the names they were stored under: `lines` is a
 * paragraph; a list's items are its lines, with each item's marker and depth where one is
 * numbered or nested (absent: bulleted at depth 0, as layouts stored before were).
 */
export type BlockLayout =
  | { kind: 'lines'; lines: number[] }
  | { kind: 'heading'; level: number; lines: number[] }
  | { kind: 'list'; items: number[][]; markers?: string[]; depths?: number[] }
  | { kind: 'code'; lines: number[]; pitch: number; /** Absent in layouts stored before it was kept. */ fit?: MonospaceFit }
  | { kind: 'table'; grid: Grid<number> };

export interface PageLayout {
  blocks: BlockLayout[];
  /** The whole image is one equation: its MMD is that equation in inline delimiters. */
  single: boolean;
  /** detected_alphabets of the text lines as read, before any alphabet was left out. */
  alphabets: AlphabetsFound;
}

/** A recognised image assembled: its lines changed as asked and in reading order, and its blocks. */
export interface AssembledPage extends PageRecognition {
  layout: PageLayout;
}

export const isAssembled = (r: PageRecognition): r is AssembledPage => 'layout' in r && (r as AssembledPage).layout !== undefined;

/** The image's size upright, and a line's box in it. */
export function uprightOf(r: PageRecognition): (l: PageLine) => PageLine['box'] {
  const rotation = r.rotation ?? 0;
  const [uw, uh] = Math.abs(rotation) === 90 ? [r.height, r.width] : [r.width, r.height];
  return (l) => boxToUpright(l.box, rotation, uw, uh);
}

/**
 * Page furniture dropped if asked, alphabets left out and punctuation widths applied, lines put
 * in reading order (two columns of prose column by column), then blocks (headings, paragraphs,
 * lists, code, tables) found.
 */
export function assemblePage(recognition: PageRecognition, opts: AssemblyOptions = {}): AssembledPage {
  const info = opts.dropPageInfo ? recognisedFurniture(recognition, new RunningLines(), false) : [];
  const kept = info.length ? { ...recognition, lines: recognition.lines.filter((l) => !info.includes(l)) } : recognition;
  const changed = mapRecognitionText(withoutAlphabets(kept, excludedAlphabets(opts.alphabetsAllowed)), (t, line) =>
    punctuationWidth(t, opts.fullwidthPunctuation, line.text),
  );
  const upright = uprightOf(recognition);
  const lines = joinDisplayRows(columnOrder(changed.lines, upright), upright, textLineHeight(changed.lines, upright));
  const single = lines.length === 1 && lines[0]!.kind === 'math' && changed.formula !== undefined;
  const index = new Map(lines.map((l, i) => [l, i]));
  const at = (l: PageLine) => index.get(l)!;
  const blocks = textBlocks(lines, upright).map((b): BlockLayout => {
    if (b.kind === 'list') {
      const items = b.items.map((item) => item.lines.map(at));
      const plain = b.items.every((item) => item.marker === BULLET_MARKER && item.depth === 0);
      return plain ? { kind: 'list', items } : { kind: 'list', items, markers: b.items.map((i) => i.marker), depths: b.items.map((i) => i.depth) };
    }
    if (b.kind === 'table') return { kind: 'table', grid: { align: b.grid.align, rows: b.grid.rows.map((row) => row.map((c) => (c ? at(c) : undefined))) } };
    if (b.kind === 'paragraph') return { kind: 'lines', lines: b.lines.map(at) };
    if (b.kind === 'heading' || b.kind === 'code') return { ...b, lines: b.lines.map(at) };
    throw new Error(`an image has no ${b.kind} blocks`);
  });
  return { ...changed, lines, layout: { blocks, single, alphabets: detectedAlphabets(recognition.lines) } };
}

/** An assembled page's blocks with their lines. */
export function pageBlocks(page: AssembledPage): Block[] {
  const line = (i: number) => page.lines[i]!;
  return page.layout.blocks.map((b): Block => {
    if (b.kind === 'list')
      return { kind: 'list', items: b.items.map((item, k) => ({ marker: b.markers?.[k] ?? BULLET_MARKER, depth: b.depths?.[k] ?? 0, lines: item.map(line) })) };
    // JSON writes an empty cell (undefined) as null.
    if (b.kind === 'table')
      return { kind: 'table', grid: { align: b.grid.align, rows: b.grid.rows.map((row) => row.map((c) => (c == null ? undefined : line(c)))) } };
    if (b.kind === 'lines') return { kind: 'paragraph', lines: b.lines.map(line) };
    return { ...b, lines: b.lines.map(line) };
  });
}
