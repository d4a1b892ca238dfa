import { describe, expect, it } from 'vitest';
import type { PageLine } from '../model.js';
import { columnOrder, columnSections } from './columns.js';

const line = (text: string, x: number, y: number, width: number): PageLine => ({ text, confidence: 0.9, kind: 'text', box: { x, y, width, height: 20 } });
const texts = (lines: PageLine[]) => columnOrder(lines, (l) => l.box).map((l) => l.text);

describe('columnOrder', () => {
  it('reads two columns of prose column by column, a title across both first', () => {
    const rows = [1, 2, 3, 4].flatMap((n) => [
      line(`left line ${n} of the first column goes here`, 10, 40 + n * 25, 280),
      line(`right line ${n} of the second column goes here`, 330, 40 + n * 25, 280),
    ]);
    const title = line('A title across the whole width of the page', 10, 0, 600);
    expect(texts([title, ...rows])).toEqual([
      'A title across the whole width of the page',
      ...[1, 2, 3, 4].map((n) => `left line ${n} of the first column goes here`),
      ...[1, 2, 3, 4].map((n) => `right line ${n} of the second column goes here`),
    ]);
  });

  it('finds a gutter narrower than a line that a running head and an overfull line cross, beside a column of displays', () => {
    // A LaTeX gutter of 10 pt is about half a recognised line's box; the right column is mostly a
    // display's rows (short lines), as a page of eqnarrays is; margin line numbers stand left of
    // the text, a strip no line crosses, but no column of prose.
    const head = line('Journal of Examples, draft of the first of May', 150, 0, 300);
    const numbers = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => line(`${n * 5}`, 0, 10 + n * 25, 20));
    const left = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => line(`left line ${n} of the first column goes here`, 40, 10 + n * 25, n === 3 ? 255 : 250));
    const right = [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
      n > 3 ? line(`f(x) = y${n}`, 360, 22 + n * 25, 120) : line(`right line ${n} of the second column goes here`, 302, 22 + n * 25, 250),
    );
    const rows = left.flatMap((l, i) => [numbers[i]!, l, right[i]!]);
    expect(texts([head, ...rows])).toEqual([head, ...left.flatMap((l, i) => [numbers[i]!, l]), ...right].map((l) => l.text));
  });

  it('finds the gutter of a page whose lower part spans both columns: headings and displays across it, each alone in its rows', () => {
    // emulateapj's page 2: two columns, then an appendix across the page (its heading, a display and
    // its number `(A1)`), then references in two columns again. The spanning lines outnumbered the
    // crossings a gutter may have, so the page was read as one column.
    const rows = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => [
        line(`left line ${from + i} of the first column goes here`, 10, from * 25 + i * 25, 280),
        line(`right line ${from + i} of the second column goes here`, 330, from * 25 + i * 25, 280),
      ]).flat();
    const spanning = [
      line('APPENDIX', 250, 150, 100),
      line('APPENDIX MATERIAL', 220, 175, 160),
      ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((k) => [line(`x_${k} = a + b`, 230, 200 + k * 25, 140), line(`(A${k + 1})`, 570, 200 + k * 25, 30)]),
      line('REFERENCES', 250, 400, 100),
    ];
    const lines = [...rows(0, 5), ...spanning, ...rows(17, 5)];
    const order = texts(lines);
    expect(order.indexOf('left line 4 of the first column goes here')).toBeLessThan(order.indexOf('right line 0 of the second column goes here'));
    expect(order.indexOf('left line 21 of the first column goes here')).toBeLessThan(order.indexOf('right line 17 of the second column goes here'));
    // Lines across it beside a line of a column (rows of a table, a line read in pieces) still count against it.
    const cells = [5, 6, 7, 8, 9].flatMap((k) => [line(`cell ${k}`, 10, k * 25, 150), line(`a wide cell ${k} that runs across`, 200, k * 25, 230)]);
    const table = [...rows(0, 5), ...cells, ...rows(10, 5)];
    expect(texts(table)).toEqual(table.map((l) => l.text));
  });

  it('keeps the rows of a table of short cells, and a single column, as they are', () => {
    const table = [1, 2, 3, 4].flatMap((n) => [line(`Iron ${n}`, 10, n * 25, 60), line(`${n}.5`, 300, n * 25, 40)]);
    expect(texts(table)).toEqual(table.map((l) => l.text));
    const single = [1, 2, 3, 4, 5, 6].map((n) => line(`a line of prose number ${n} here`, 10, n * 25, 400));
    expect(texts(single)).toEqual(single.map((l) => l.text));
  });
});

describe('columnSections', () => {
  const span = (x0: number, x1: number, top: number) => ({ x0, x1, top });
  it('cuts the page at a line across the gutter and reads each section left column then right', () => {
    const lines = [span(300, 500, 10), span(10, 200, 10), span(10, 500, 50), span(300, 500, 80), span(10, 200, 80), span(10, 200, 90)];
    const sections = columnSections(lines, (l) => l, 250);
    expect(sections.map((s) => s.lines.map((l) => lines.indexOf(l)))).toEqual([[1, 0], [2], [4, 5, 3]]);
    expect(sections.map((s) => [...s.columnStarts])).toEqual([[1], [], [2]]);
  });

  it('keeps the given order as one section without a gutter', () => {
    const lines = [span(10, 200, 50), span(10, 200, 10)];
    expect(columnSections(lines, (l) => l, undefined)).toEqual([{ lines, columnStarts: new Set() }]);
  });
});
