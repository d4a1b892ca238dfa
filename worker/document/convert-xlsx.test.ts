import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCE_NAME } from './convert-pandoc.js';
import { extractTables } from './convert-tables.js';
import { cellRef, writeXlsx } from './convert-xlsx.js';

async function inScratch<T>(mmd: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-xlsx-test-'));
  try {
    await writeFile(join(dir, SOURCE_NAME), mmd);
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const MMD = [
  'Results of the run.',
  '',
  '| Trial | Value | Note |',
  '|---|---|---|',
  '| 1 | 2.5 | \\(x^2\\) & a<b |',
  '| 2 | -1e3 | plain |',
  '',
  '\\begin{tabular}{|l|c|c|}',
  '\\hline',
  '\\multicolumn{2}{|c|}{Merged} & k \\\\',
  '\\hline',
  'a & 7 & \\(\\alpha\\) \\\\',
  '\\end{tabular}',
  '',
].join('\n');

describe('extractTables', () => {
  it('reads Markdown tables and LaTeX tabulars onto grids with spans', async () => {
    const tables = await inScratch(MMD, extractTables);
    expect(tables).toHaveLength(2);
    expect(tables[0]).toMatchObject({ rows: 3, cols: 3 });
    expect(tables[0]!.cells.find((c) => c.row === 1 && c.col === 2)?.text).toBe('\\(x^2\\) & a<b');
    expect(tables[0]!.cells.filter((c) => c.header).map((c) => c.text)).toEqual(['Trial', 'Value', 'Note']);
    expect(tables[1]!.cells[0]).toMatchObject({ row: 0, col: 0, colSpan: 2, text: 'Merged' });
    expect(tables[1]!.cells.find((c) => c.text === 'k')).toMatchObject({ row: 0, col: 2 });
  });
});

describe('writeXlsx', () => {
  it('writes one sheet per table, numbers as numbers, text escaped, spans merged', async () => {
    const xlsx = await inScratch(MMD, async (dir) => {
      const body = await writeXlsx(dir);
      await writeFile(join(dir, 'book.xlsx'), body);
      const member = (m: string) => execFileSync('unzip', ['-p', join(dir, 'book.xlsx'), m]).toString();
      const list = execFileSync('unzip', ['-Z1', join(dir, 'book.xlsx')]).toString();
      return { list, workbook: member('xl/workbook.xml'), sheet1: member('xl/worksheets/sheet1.xml'), sheet2: member('xl/worksheets/sheet2.xml') };
    });
    expect(xlsx.list.split('\n').filter(Boolean).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ]);
    expect(xlsx.workbook).toContain('<sheet name="Table 2" sheetId="2" r:id="rId2"/>');
    const sheet1 = xlsx.sheet1;
    expect(sheet1).toContain('<c r="B2"><v>2.5</v></c>');
    expect(sheet1).toContain('<c r="B3"><v>-1000</v></c>');
    expect(sheet1).toContain('<c r="A1" s="1" t="inlineStr"><is><t xml:space="preserve">Trial</t></is></c>');
    expect(sheet1).toContain('\\(x^2\\) &amp; a&lt;b');
    expect(xlsx.sheet2).toContain('<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>');
  });
});

describe('cellRef', () => {
  it('spells columns as Excel does', () => {
    expect([cellRef(0, 0), cellRef(9, 25), cellRef(0, 26), cellRef(1, 701), cellRef(0, 702)]).toEqual(['A1', 'Z10', 'AA1', 'ZZ2', 'AAA1']);
  });
});
