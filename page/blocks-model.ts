import type { MonospaceFit } from './processors/code-lines.js';

/**
 * The blocks of a page: one type for every input. A block holds lines of the kind its source
 * gives — the recognised lines of an image or scanned page (`PageLine`, page/model.ts), the
 * glyph lines of a born-digital PDF page (worker/document/pipeline/text-layer.ts) — so the
 * processors that find blocks and the renderers that write them share one vocabulary.
 */

/** How a column's cells sit: left, centred, right. */
export type ColumnAlign = 'l' | 'c' | 'r';

/** Rows of cells, one a column (an empty cell undefined), and each column's alignment. */
export interface Grid<C> {
  rows: Array<Array<C | undefined>>;
  align: ColumnAlign[];
}

/** A bulleted list item's marker (a numbered one's is `N. `). */
export const BULLET_MARKER = '- ';

/** One item of a list: its marker (BULLET_MARKER, or `N. ` for a number), its nesting depth (0 outermost), its lines. */
export interface ListItem<L> {
  marker: string;
  depth: number;
  lines: L[];
}

/** A cropped figure where it sits on the page. */
export interface FigureRef {
  name: string;
  /** The MMD that shows it: `![](<link>)`, or a structure diagram's `<smiles>` (worker/chemistry/). */
  mmd: string;
  /** Its region on the page (PDF points, origin top-left). */
  box: { x0: number; y0: number; x1: number; y1: number };
}

export type Block<L> =
  /** Lines of running text; on an image a display line may sit inside its paragraph. */
  | { kind: 'paragraph'; lines: L[] }
  | { kind: 'heading'; level: number; lines: L[] }
  /** Items in reading order; an item deeper than the one before it is nested in it. */
  | { kind: 'list'; items: ListItem<L>[] }
  | { kind: 'code'; lines: L[]; pitch: number; fit?: MonospaceFit }
  /** `whole`: the table as one line spanning its cells, where the source has one (born-digital pages). */
  | { kind: 'table'; grid: Grid<L>; whole?: L }
  /** A display equation; `tag` is its equation number as printed, when it has one. */
  | { kind: 'display_math'; lines: L[]; tag?: string }
  | { kind: 'figure'; figure: FigureRef }
  /** Running heads, running feet and page numbers: listed in lines.json, left out of the MMD. */
  | { kind: 'furniture'; lines: L[] };

/** Every line a block holds, in order (a table's whole line, else its cells row by row). */
export function blockLines<L>(b: Block<L>): L[] {
  if (b.kind === 'list') return b.items.flatMap((item) => item.lines);
  if (b.kind === 'table') return b.whole ? [b.whole] : b.grid.rows.flat().filter((c): c is L => c !== undefined);
  if (b.kind === 'figure') return [];
  return b.lines;
}
