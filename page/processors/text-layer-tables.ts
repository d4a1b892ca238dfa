import type { ColumnAlign, Grid } from '../blocks-model.js';
import type { Glyph, Region, TextLine } from '../glyph-lines.js';
import { EQUATION_NUMBER } from '../equation-number.js';
import { findGutter } from './text-layer-columns.js';

/**
 * Tables on a born-digital page: consecutive rows whose words leave the same wide vertical gaps empty. The
 * gaps are found from words, not from the text layer's fragments, because a header row's cells
 * can be closer than the fragment gap (tabcolsep is 12 pt, a little over an em). To tell a table
 * from an author block or a column of equation numbers, it needs text cells and either a rule
 * (\hline, booktabs) across it or rows of numbers.
 */

/** An empty strip at least this many ems wide between words is a column boundary; word spaces stay under 0.7 em. */
const MIN_COLUMN_GAP_EM = 0.8;
/** Rows of one table: baselines at least a line apart (not the parts of a fraction) and at most this many ems. */
const MIN_ROW_PITCH_EM = 0.95;
const MAX_ROW_PITCH_EM = 2.6;
/** Cells of prose (two text columns side by side) are longer than this, counted by the median cell. */
const MAX_MEDIAN_CELL_WORDS = 6;
/** Without a rule, this many rows whose cells are mostly numbers make a table. */
const MIN_NUMERIC_ROWS = 3;
const NUMBER = /^[-−+±]?(\d+([.,]\d+)*|[.,]\d+)%?$/;

/** Row by row, one cell a column (an empty cell undefined), each column's alignment. */
export type PageTable = Grid<TextLine>;

/** A text line standing for a whole table, spanning its cells. */
export type TableLine = TextLine & { table: PageTable };

export function isTableLine(line: TextLine): line is TableLine {
  return (line as Partial<TableLine>).table !== undefined;
}

interface Word {
  glyphs: Glyph[];
  x0: number;
  x1: number;
}

interface Row {
  lines: TextLine[];
  words: Word[];
  base: number;
  size: number;
}

type Gap = [number, number];

/** Glyphs (left to right) → the text line they make, as the text layer makes its lines (worker/document/pipeline/text-layer.ts). */
export type MakeLine = (glyphs: Glyph[]) => TextLine | undefined;

/**
 * Splits the page's lines into tables (one TableLine each) and the lines left. On a two-column
 * page each column is searched on its own: side by side, the columns' lines would look like cells.
 * @param rules the page's horizontal rules, in the lines' coordinates
 * @param makeLine how a cell's glyphs become its line
 */
export function findTables(lines: TextLine[], rules: Region[], pageWidth: number, makeLine: MakeLine): { tables: TableLine[]; rest: TextLine[] } {
  const gutter = findGutter(lines, pageWidth);
  if (gutter === undefined) return tablesIn(lines, rules, makeLine);
  const sides = [lines.filter((l) => l.x1 <= gutter), lines.filter((l) => l.x0 >= gutter), lines.filter((l) => l.x0 < gutter && l.x1 > gutter)];
  const found = sides.map((side) => tablesIn(side, rules, makeLine));
  return { tables: found.flatMap((f) => f.tables), rest: found.flatMap((f) => f.rest) };
}

function tablesIn(lines: TextLine[], rules: Region[], makeLine: MakeLine): { tables: TableLine[]; rest: TextLine[] } {
  const rows = toRows(lines);
  const used = new Set<Row>();
  const tables: TableLine[] = [];
  // Seeds with the most column gaps first: a spanning header is then the one left out, not the data.
  const seeds = rows.filter((r) => gapsOf(r.words, r.size).length > 0).sort((a, b) => gapsOf(b.words, b.size).length - gapsOf(a.words, a.size).length);
  for (const seed of seeds) {
    if (used.has(seed)) continue;
    const run = grow(seed, rows, used);
    const table = run.length >= 2 ? buildTable(run, rules, makeLine) : undefined;
    if (!table) continue;
    for (const r of run) used.add(r);
    tables.push(table);
  }
  const inTables = new Set([...used].flatMap((r) => r.lines));
  return { tables, rest: lines.filter((l) => !inTables.has(l)) };
}

/** Lines sharing a baseline, top to bottom. */
function toRows(lines: TextLine[]): Row[] {
  const rows: Row[] = [];
  for (const line of [...lines].sort((a, b) => a.base - b.base || a.x0 - b.x0)) {
    const row = rows[rows.length - 1];
    if (row && Math.abs(line.base - row.base) <= 0.3 * row.size) row.lines.push(line);
    else rows.push({ lines: [line], words: [], base: line.base, size: line.size });
  }
  for (const row of rows) row.words = row.lines.flatMap(wordsOf).sort((a, b) => a.x0 - b.x0);
  return rows;
}

function wordsOf(line: TextLine): Word[] {
  const words: Word[] = [];
  let glyphs: Glyph[] = [];
  const push = () => {
    if (glyphs.length) words.push({ glyphs, x0: Math.min(...glyphs.map((g) => g.x)), x1: Math.max(...glyphs.map((g) => g.x + g.w)) });
    glyphs = [];
  };
  for (const g of line.glyphs) {
    if (g.ch === ' ') push();
    else glyphs.push(g);
  }
  push();
  return words;
}

/** The empty strips at least MIN_COLUMN_GAP_EM wide between the words, left to right. */
function gapsOf(words: Word[], size: number): Gap[] {
  const sorted = [...words].sort((a, b) => a.x0 - b.x0);
  const gaps: Gap[] = [];
  let right = -Infinity;
  for (const w of sorted) {
    if (right > -Infinity && w.x0 - right >= MIN_COLUMN_GAP_EM * size) gaps.push([right, w.x0]);
    right = Math.max(right, w.x1);
  }
  return gaps;
}

/** What is left of each gap once `words` are laid over it; a gap covered or narrowed below the minimum is gone. */
function surviving(gaps: Gap[], words: Word[], size: number): Gap[] {
  return gaps.flatMap(([a, b]) => {
    const inside = words.filter((w) => w.x1 > a && w.x0 < b);
    return gapsOf([{ glyphs: [], x0: a - 1, x1: a }, ...inside, { glyphs: [], x0: b, x1: b + 1 }], size);
  });
}

/** True when the row has words on both sides of one of the gaps: cells in two columns, not a short line of prose. */
const straddles = (row: Row, gaps: Gap[]) => gaps.some(([a, b]) => row.words.some((w) => w.x1 <= a) && row.words.some((w) => w.x0 >= b));

/** The seed and its neighbours above and below that fill two columns and leave every column gap open. */
function grow(seed: Row, rows: Row[], used: Set<Row>): Row[] {
  const run = [seed];
  let gaps = gapsOf(seed.words, seed.size);
  const at = rows.indexOf(seed);
  for (const dir of [-1, 1]) {
    for (let i = at + dir, prev = seed; i >= 0 && i < rows.length; prev = rows[i]!, i += dir) {
      const row = rows[i]!;
      const pitch = Math.abs(row.base - prev.base);
      if (used.has(row) || pitch < MIN_ROW_PITCH_EM * seed.size || pitch > MAX_ROW_PITCH_EM * seed.size || Math.abs(row.size - seed.size) > 0.2 * seed.size)
        break;
      const left = surviving(gaps, row.words, seed.size);
      if (left.length < gaps.length || !straddles(row, left)) break;
      gaps = left;
      if (dir < 0) run.unshift(row);
      else run.push(row);
    }
  }
  return run;
}

/** The table the rows make, or undefined when they do not look like one. */
function buildTable(run: Row[], rules: Region[], makeLine: MakeLine): TableLine | undefined {
  const size = run[0]!.size;
  const words = run.flatMap((r) => r.words);
  const gaps = gapsOf(words, size);
  const bounds = [-Infinity, ...gaps.map(([a, b]) => (a + b) / 2), Infinity];
  const columnOf = (x: number) => bounds.findIndex((b, i) => x >= b && x < bounds[i + 1]!);
  const rows = run.map((row) => {
    const cells: Glyph[][] = Array.from({ length: bounds.length - 1 }, () => []);
    for (const g of row.lines.flatMap((l) => l.glyphs)) cells[columnOf(g.x + g.w / 2)]!.push(g);
    return cells.map((glyphs) => makeLine(glyphs.sort((a, b) => a.x - b.x)));
  });
  const box = {
    x0: Math.min(...words.map((w) => w.x0)),
    x1: Math.max(...words.map((w) => w.x1)),
    y0: Math.min(...run.flatMap((r) => r.lines.map((l) => l.top))),
    y1: Math.max(...run.flatMap((r) => r.lines.map((l) => l.bottom))),
  };
  if (!looksLikeTable(rows, box, rules, size)) return undefined;
  const lines = run.flatMap((r) => r.lines);
  return {
    glyphs: lines.flatMap((l) => l.glyphs),
    x0: box.x0,
    x1: box.x1,
    top: box.y0,
    bottom: box.y1,
    base: run[0]!.base,
    size,
    bold: false,
    text: rows.map((cells) => cells.map((c) => c?.text ?? '').join('\t')).join('\n'),
    table: { rows, align: alignments(rows) },
  };
}

function looksLikeTable(rows: Array<Array<TextLine | undefined>>, box: Region, rules: Region[], size: number): boolean {
  const content = rows.map((cells) => cells.filter((c): c is TextLine => c !== undefined && !EQUATION_NUMBER.test(c.text.trim())));
  if (content.filter((cells) => cells.length >= 2).length < 2) return false;
  const cells = content.flat();
  const words = cells.map((c) => c.text.split(' ').length).sort((a, b) => a - b);
  if (words[Math.floor(words.length / 2)]! > MAX_MEDIAN_CELL_WORDS) return false;
  // A grid of maths alone (align with several columns, a matrix) is a display, not a table.
  if (cells.filter((c) => !c.glyphs.some((g) => g.mathFont && g.ch !== ' ')).length * 3 < cells.length) return false;
  const ruled = rules.some(
    (r) => r.x1 - r.x0 >= 0.5 * (box.x1 - box.x0) && r.x0 < box.x1 && r.x1 > box.x0 && r.y1 > box.y0 - 1.5 * size && r.y0 < box.y1 + 1.5 * size,
  );
  const numeric = content.filter((cells) => cells.filter((c) => NUMBER.test(c.text.trim())).length * 2 >= cells.length).length;
  // Unruled rows of numbers are a table when some cell holds a word (a header, a label); a grid of
  // numbers and maths alone is a matrix set in a display (`A = \begin{matrix}1 & 0 …`).
  const worded = cells.some((c) => /\p{L}{2,}/u.test(c.glyphs.map((g) => (g.mathFont ? ' ' : g.ch)).join('')));
  return ruled || (numeric >= MIN_NUMERIC_ROWS && worded);
}

/** Each column's alignment: the edge (left, right) or centre its cells agree on best. */
function alignments(rows: Array<Array<TextLine | undefined>>): ColumnAlign[] {
  return rows[0]!.map((_, col) => {
    const cells = rows.map((r) => r[col]).filter((c): c is TextLine => c !== undefined);
    const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
    const by: Array<[ColumnAlign, number]> = [
      ['l', spread(cells.map((c) => c.x0))],
      ['r', spread(cells.map((c) => c.x1))],
      ['c', spread(cells.map((c) => (c.x0 + c.x1) / 2))],
    ];
    return by.reduce((best, next) => (next[1] < best[1] - 0.5 ? next : best))[0];
  });
}
