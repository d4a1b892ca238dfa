import { describe, expect, it } from 'vitest';
import type { TextLine } from '../glyph-lines.js';
import { layoutPage, type TextLayerReading } from './text-layer-blocks.js';

/** A glyph line of `text` at baseline y, one glyph a character 0.5 em wide from x0. */
function line(text: string, y: number, x0 = 72, size = 10, bold = false): TextLine {
  const glyphs = [...text].map((ch, i) => ({ ch, x: x0 + 0.5 * size * i, w: 0.5 * size, base: y, size, font: 'F1', bold, mathFont: false }));
  return { glyphs, x0, x1: x0 + 0.5 * size * text.length, top: y - 0.8 * size, bottom: y + 0.2 * size, base: y, size, bold, text };
}

const reading = (displays = new Map<TextLine, { tag?: string; standsAlone: boolean }>()): TextLayerReading => ({
  display: (l) => displays.get(l),
  isMathOnly: () => false,
  isBullet: (ch) => ch === '•',
});

const shape = (blocks: ReturnType<typeof layoutPage>) =>
  blocks.map((b) =>
    b.kind === 'list'
      ? { list: b.items.map((i) => `${i.depth}${i.marker}${i.lines.map((l) => l.text).join(' ')}`) }
      : b.kind === 'heading'
        ? { [`h${b.level}`]: b.lines.map((l) => l.text).join(' ') }
        : b.kind === 'display_math'
          ? { display: b.lines[0]!.text, tag: b.tag }
          : b.kind === 'figure'
            ? b.kind
            : { [b.kind]: b.lines.map((l) => l.text) },
  );

describe('layoutPage (born-digital glyph lines → blocks)', () => {
  it('tells headings by size, lists with nesting by indent, paragraphs by leading and displays as the worker read them', () => {
    const display = line('E = mc2 (3)', 172, 72);
    const lines = [
      line('Results', 80, 72, 16),
      line('The first paragraph starts', 100),
      line('and goes on here.', 112),
      line('• outer item', 136),
      line('• inner item', 148, 90),
      line('• outer again', 160),
      display,
      line('Last words of the page.', 190),
    ];
    const blocks = layoutPage(lines, 400, 600, reading(new Map([[display, { tag: '3', standsAlone: true }]])), false);
    expect(shape(blocks)).toEqual([
      { h1: 'Results' },
      { paragraph: ['The first paragraph starts', 'and goes on here.'] },
      { list: ['0- • outer item', '1- • inner item', '0- • outer again'] },
      { display: 'E = mc2 (3)', tag: '3' },
      { paragraph: ['Last words of the page.'] },
    ]);
  });

  it('tells a section by its number where the line stands apart, as on a scanned page (headings.ts), not a numbered item or a footnote', () => {
    const body = (y: number) => [line('Body text of the page goes on', y), line('over two lines of the column.', y + 12)];
    const lines = [
      ...body(100),
      line('1. INTRODUCTION', 142),
      ...body(160),
      line('2.1 Open sets', 202),
      ...body(220),
      line('1. Fresh bread', 256),
      line('2. Two litres of milk', 274),
      line('3 The note of a footnote', 300, 72, 8),
    ];
    expect(shape(layoutPage(lines, 400, 600, reading(), false))).toEqual([
      { paragraph: ['Body text of the page goes on', 'over two lines of the column.'] },
      { h2: '1. INTRODUCTION' },
      { paragraph: ['Body text of the page goes on', 'over two lines of the column.'] },
      { h3: '2.1 Open sets' },
      { paragraph: ['Body text of the page goes on', 'over two lines of the column.'] },
      { list: ['01. 1. Fresh bread', '02. 2. Two litres of milk'] },
      { paragraph: ['3 The note of a footnote'] },
    ]);
  });
});
