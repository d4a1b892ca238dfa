import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONVERT_TIMEOUT_MS, PANDOC_FROM, SOURCE_NAME } from './convert-pandoc.js';
import { FormatError, runTool } from './convert-tool.js';

/** One cell placed on a table's grid; spans > 1 become merged cells. */
export interface GridCell {
  row: number;
  col: number;
  text: string;
  rowSpan: number;
  colSpan: number;
  header: boolean;
}

export interface ExtractedTable {
  cells: GridCell[];
  rows: number;
  cols: number;
}

// pandoc's JSON AST (API 1.22, pandoc 2.17): the few node shapes tables are made of.
type Node = { t: string; c?: unknown };
type Cell = [unknown, unknown, number, number, Node[]];
type Row = [unknown, Cell[]];
type Body = [unknown, number, Row[], Row[]];
type TableContent = [unknown, unknown, unknown, [unknown, Row[]], Body[], [unknown, Row[]]];

/** Plain text of inlines and blocks; maths keeps its LaTeX in MMD's delimiters. */
function textOf(nodes: Node[]): string {
  let out = '';
  for (const n of nodes) {
    switch (n.t) {
      case 'Str':
        out += n.c as string;
        break;
      case 'Space':
      case 'SoftBreak':
        out += ' ';
        break;
      case 'LineBreak':
        out += '\n';
        break;
      case 'Math': {
        const [kind, tex] = n.c as [Node, string];
        out += kind.t === 'DisplayMath' ? `\\[${tex}\\]` : `\\(${tex}\\)`;
        break;
      }
      case 'Code':
        out += (n.c as [unknown, string])[1];
        break;
      case 'Link':
      case 'Image':
        out += textOf((n.c as [unknown, Node[]])[1]);
        break;
      case 'Quoted':
        out += `“${textOf((n.c as [unknown, Node[]])[1])}”`;
        break;
      case 'Span':
        out += textOf((n.c as [unknown, Node[]])[1]);
        break;
      case 'Plain':
      case 'Para':
      case 'Emph':
      case 'Strong':
      case 'Underline':
      case 'Strikeout':
      case 'Superscript':
      case 'Subscript':
      case 'SmallCaps':
        out += (out && (n.t === 'Para' || n.t === 'Plain') ? '\n' : '') + textOf(n.c as Node[]);
        break;
      default:
        break; // notes, raw snippets and nested blocks carry nothing a cell should show
    }
  }
  return out;
}

/** Places rows on a grid, skipping slots taken by an earlier cell's row or column span. */
function placeRows(rows: Row[], header: boolean, grid: { cells: GridCell[]; taken: Set<string>; row: number }): void {
  for (const [, cells] of rows) {
    let col = 0;
    for (const [, , rowSpan, colSpan, blocks] of cells) {
      while (grid.taken.has(`${grid.row}:${col}`)) col++;
      for (let r = 0; r < rowSpan; r++) for (let c = 0; c < colSpan; c++) grid.taken.add(`${grid.row + r}:${col + c}`);
      grid.cells.push({ row: grid.row, col, text: textOf(blocks).trim(), rowSpan, colSpan, header });
      col += colSpan;
    }
    grid.row++;
  }
}

function tableOf(content: TableContent): ExtractedTable {
  const [, , , [, headRows], bodies, [, footRows]] = content;
  const grid = { cells: [] as GridCell[], taken: new Set<string>(), row: 0 };
  placeRows(headRows, true, grid);
  for (const [, , bodyHead, bodyRows] of bodies) {
    placeRows(bodyHead, true, grid);
    placeRows(bodyRows, false, grid);
  }
  placeRows(footRows, false, grid);
  const cols = Math.max(0, ...grid.cells.map((c) => c.col + c.colSpan));
  const rows = Math.max(0, ...grid.cells.map((c) => c.row + c.rowSpan));
  return { cells: grid.cells, rows, cols };
}

/** Every Table node of a pandoc document, in order, and the LaTeX tabular blocks it left raw. */
function collect(blocks: Node[], tables: ExtractedTable[], rawTabulars: string[]): void {
  for (const b of blocks) {
    if (b.t === 'Table') tables.push(tableOf(b.c as TableContent));
    else if (b.t === 'RawBlock') {
      const [format, text] = b.c as [string, string];
      if ((format === 'tex' || format === 'latex') && /\\begin\{tabular\}/.test(text)) rawTabulars.push(text);
    } else if (b.t === 'Div') collect((b.c as [unknown, Node[]])[1], tables, rawTabulars);
    else if (b.t === 'BlockQuote') collect(b.c as Node[], tables, rawTabulars);
  }
}

async function pandocJson(dir: string, from: string, file: string): Promise<Node[]> {
  const out = `${file}.json`;
  const run = await runTool('pandoc', ['-f', from, '-t', 'json', '-o', out, file], { cwd: dir, timeoutMs: CONVERT_TIMEOUT_MS });
  if (run.code !== 0) throw new FormatError('sys_exception', `pandoc could not read the tables: ${run.output.trim().split('\n').slice(-2).join(' ')}`);
  return (JSON.parse(await readFile(join(dir, out), 'utf8')) as { blocks: Node[] }).blocks;
}

/**
 * The tables of the MMD in `dir`: Markdown tables as pandoc reads them, then MMD's LaTeX
 * `tabular` blocks, which the Markdown reader leaves as raw TeX and pandoc's LaTeX reader turns
 * into tables.
 */
export async function extractTables(dir: string): Promise<ExtractedTable[]> {
  const tables: ExtractedTable[] = [];
  const rawTabulars: string[] = [];
  collect(await pandocJson(dir, PANDOC_FROM, SOURCE_NAME), tables, rawTabulars);
  if (rawTabulars.length) {
    await writeFile(join(dir, 'tabulars.tex'), rawTabulars.join('\n\n'));
    const fromLatex: ExtractedTable[] = [];
    collect(await pandocJson(dir, 'latex', 'tabulars.tex'), fromLatex, []);
    tables.push(...fromLatex);
  }
  return tables.filter((t) => t.cells.length > 0);
}
