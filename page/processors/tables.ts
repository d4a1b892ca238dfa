import type { ColumnAlign, Grid } from '../blocks-model.js';
import type { PageLine } from '../model.js';
import { upperMedian, wordCount } from './line-measures.js';

/**
 * Tables in an image. The text model boxes each cell of a table apart (the gaps between cells are
 * wider than any word space), so a table arrives as rows of several lines side by side. A table is
 * a run of at least MIN_ROWS such rows, every row of two cells or more, whose cells fall into the
 * same columns: each cell overlaps exactly one column, a column being the union of the cells' spans.
 * A row with an empty cell still fits, and the median cell holds at most MAX_MEDIAN_CELL_WORDS
 * words (two columns of prose read side by side are no table). Cells are the lines as read
 * (their inline maths included).
 */

type Box = PageLine['box'];

/** Rows a table needs; two rows of two cells are as likely a heading beside a date. */
export const MIN_ROWS = 3;
/** Cells of prose (two text columns side by side) hold more words than this, counted by the median cell. */
export const MAX_MEDIAN_CELL_WORDS = 6;

export interface TableRun {
  /** Lines [start, end) in reading order. */
  start: number;
  end: number;
  grid: Grid<PageLine>;
}

export function tableRuns(lines: PageLine[], upright: (l: PageLine) => Box): TableRun[] {
  const boxes = lines.map(upright);
  const rows = rowsOf(lines, boxes);
  const runs: TableRun[] = [];
  for (let r = 0; r < rows.length;) {
    let end = r;
    let columns: [number, number][] = [];
    while (end < rows.length && rows[end]!.length >= 2) {
      const next = mergeColumns(
        columns,
        rows[end]!.map((i) => boxes[i]!),
      );
      if (!next) break;
      columns = next;
      end++;
    }
    const cellWords = upperMedian(
      rows
        .slice(r, end)
        .flat()
        .map((i) => wordCount(lines[i]!.text)),
    );
    if (end - r >= MIN_ROWS && cellWords <= MAX_MEDIAN_CELL_WORDS) {
      const indices = rows.slice(r, end);
      runs.push({ start: indices[0]![0]!, end: indices.at(-1)!.at(-1)! + 1, grid: grid(indices, lines, boxes, columns) });
      r = end;
    } else r++;
  }
  return runs;
}

/** Consecutive lines whose middles lie within half a line height of the row's first line. */
function rowsOf(lines: PageLine[], boxes: Box[]): number[][] {
  const rows: number[][] = [];
  boxes.forEach((b, i) => {
    const row = rows.at(-1);
    const first = row && boxes[row[0]!]!;
    const last = row && boxes[row.at(-1)!]!;
    const sameRow =
      first &&
      last &&
      lines[i]!.kind !== 'math' &&
      Math.abs(b.y + b.height / 2 - (first.y + first.height / 2)) < first.height / 2 &&
      b.x >= last.x + last.width;
    if (sameRow) row!.push(i);
    else rows.push([i]);
  });
  return rows;
}

const overlaps = (a: [number, number], b: [number, number]) => a[0] < b[1] && b[0] < a[1];

/**
 * The columns after adding a row: each cell joins the one column it overlaps or opens a new one
 * where none is; null when a cell overlaps two columns or two cells overlap one.
 */
function mergeColumns(columns: [number, number][], cells: Box[]): [number, number][] | null {
  const out = columns.map((c) => [...c] as [number, number]);
  const taken = new Set<number>();
  for (const cell of cells) {
    const span: [number, number] = [cell.x, cell.x + cell.width];
    const hits = out.flatMap((c, k) => (overlaps(c, span) ? [k] : []));
    if (hits.length > 1) return null;
    if (hits.length === 1) {
      const k = hits[0]!;
      if (taken.has(k)) return null;
      taken.add(k);
      out[k] = [Math.min(out[k]![0], span[0]), Math.max(out[k]![1], span[1])];
    } else {
      out.push(span);
      taken.add(out.length - 1);
    }
  }
  out.sort((a, b) => a[0] - b[0]);
  // A new column may have grown into another: the columns must stay apart.
  for (let k = 1; k < out.length; k++) if (out[k]![0] < out[k - 1]![1]) return null;
  return out;
}

/** The rows' lines placed in their columns, each column aligned as its cells sit in it. */
function grid(rows: number[][], lines: PageLine[], boxes: Box[], columns: [number, number][]): Grid<PageLine> {
  const cells = rows.map((row) => {
    const out: Array<PageLine | undefined> = new Array(columns.length).fill(undefined);
    for (const i of row) out[columns.findIndex((c) => overlaps(c, [boxes[i]!.x, boxes[i]!.x + boxes[i]!.width]))] = lines[i];
    return out;
  });
  const align = columns.map((c, k): ColumnAlign => {
    const spans = rows.flatMap((row) => row.filter((i) => overlaps(c, [boxes[i]!.x, boxes[i]!.x + boxes[i]!.width])).map((i) => boxes[i]!));
    const slack = (f: (b: Box) => number) => Math.max(...spans.map(f));
    const left = slack((b) => b.x - c[0]);
    const right = slack((b) => c[1] - (b.x + b.width));
    const tolerance = 0.25 * Math.min(...spans.map((b) => b.height));
    return left <= tolerance && right > tolerance ? 'l' : right <= tolerance && left > tolerance ? 'r' : left <= tolerance && right <= tolerance ? 'l' : 'c';
  });
  return { rows: cells, align };
}
