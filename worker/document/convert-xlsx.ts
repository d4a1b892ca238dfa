import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { zipTree } from './convert-pandoc.js';
import { type ExtractedTable, type GridCell, extractTables } from './convert-tables.js';

/** Excel's own limit on a sheet name. */
const MAX_SHEET_NAME = 31;
/** A cell that is a plain decimal number is written as a number, so sums and sorting work. */
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** XML text, without the control characters XML 1.0 cannot carry. */
function xml(s: string): string {
  return s
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A1-style reference of a zero-based row and column. */
export function cellRef(row: number, col: number): string {
  let letters = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return `${letters}${row + 1}`;
}

function cellXml(c: GridCell): string {
  const style = c.header ? ' s="1"' : '';
  if (NUMBER.test(c.text) && Number.isFinite(Number(c.text))) return `<c r="${cellRef(c.row, c.col)}"${style}><v>${Number(c.text)}</v></c>`;
  return `<c r="${cellRef(c.row, c.col)}"${style} t="inlineStr"><is><t xml:space="preserve">${xml(c.text)}</t></is></c>`;
}

function sheetXml(t: ExtractedTable): string {
  const byRow = new Map<number, GridCell[]>();
  for (const c of t.cells) byRow.set(c.row, [...(byRow.get(c.row) ?? []), c]);
  const rows = [...byRow.keys()]
    .sort((a, b) => a - b)
    .map((r) => {
      const cells = byRow
        .get(r)!
        .sort((a, b) => a.col - b.col)
        .map(cellXml)
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    });
  const merged = t.cells.filter((c) => c.rowSpan > 1 || c.colSpan > 1);
  const merges = merged.length
    ? `<mergeCells count="${merged.length}">${merged.map((c) => `<mergeCell ref="${cellRef(c.row, c.col)}:${cellRef(c.row + c.rowSpan - 1, c.col + c.colSpan - 1)}"/>`).join('')}</mergeCells>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData>${merges}</worksheet>`;
}

/**
 * The OOXML parts of a workbook with one sheet per table (ECMA-376 part 1, SpreadsheetML). A
 * workbook needs at least one sheet: without tables it has one empty sheet, "No tables".
 */
export function workbookParts(tables: ExtractedTable[]): Record<string, string> {
  const ns = 'http://schemas.openxmlformats.org';
  const empty = !tables.length;
  if (empty) tables = [{ cells: [], rows: 0, cols: 0 }];
  const sheets = tables.map((_, i) => ({ n: i + 1, name: empty ? 'No tables' : `Table ${i + 1}`.slice(0, MAX_SHEET_NAME) }));
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${sheets.map((s) => `<Override PartName="/xl/worksheets/sheet${s.n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}</Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets>${sheets.map((s) => `<sheet name="${xml(s.name)}" sheetId="${s.n}" r:id="rId${s.n}"/>`).join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${ns}/package/2006/relationships">${sheets.map((s) => `<Relationship Id="rId${s.n}" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${s.n}.xml"/>`).join('')}<Relationship Id="rId${sheets.length + 1}" Type="${ns}/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    // Style 1 is bold, for header rows.
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="${ns}/spreadsheetml/2006/main"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs></styleSheet>`,
  };
  tables.forEach((t, i) => (parts[`xl/worksheets/sheet${i + 1}.xml`] = sheetXml(t)));
  return parts;
}

/**
 * The `xlsx` format: each table of the MMD (Markdown or LaTeX tabular) as one sheet, numbers as
 * numbers, maths as its LaTeX in MMD delimiters, spans as merged cells. A document without
 * tables gets a workbook with one empty sheet, which every spreadsheet program opens.
 */
export async function writeXlsx(dir: string): Promise<Buffer> {
  const tables = await extractTables(dir);
  const root = join(dir, 'xlsx');
  for (const [path, body] of Object.entries(workbookParts(tables))) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), body);
  }
  return zipTree(root, join(dir, 'document.xlsx'));
}
