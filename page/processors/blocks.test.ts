import { describe, expect, it } from 'vitest';
import type { PageLine } from '../model.js';
import { assemblePage, pageBlocks } from '../assemble.js';
import { linesToMmd } from '../render/image-page.js';
import { textBlocks } from './blocks.js';

/** A text line of height 20 at (x, y). */
const line = (text: string, x: number, y: number, kind: 'text' | 'math' = 'text'): PageLine => ({
  text,
  confidence: 0.9,
  box: { x, y, width: 300, height: 20 },
  kind,
});
const shape = (lines: PageLine[]) =>
  textBlocks(lines, (l) => l.box).map((b) =>
    b.kind === 'paragraph'
      ? b.lines.map((l) => l.text)
      : b.kind === 'code'
        ? { code: b.lines.map((l) => l.text) }
        : b.kind === 'table'
          ? { table: b.grid.rows.map((r) => r.map((c) => c?.text ?? '')), align: b.grid.align.join('') }
          : b.kind === 'heading'
            ? { [`h${b.level}`]: b.lines.map((l) => l.text).join(' ') }
            : b.kind === 'list'
              ? { list: b.items.map((i) => i.lines.map((l) => l.text).join(' ')) }
              : b.kind,
  );

describe('textBlocks', () => {
  it('starts a paragraph after a gap taller than a line or at a first-line indent', () => {
    const lines = [
      line('Heading', 10, 0),
      line('First line of text', 10, 40),
      line('goes on here.', 10, 64),
      line('Indented start', 40, 88),
      line('and its end.', 10, 112),
    ];
    expect(shape(lines)).toEqual([['Heading'], ['First line of text', 'goes on here.'], ['Indented start', 'and its end.']]);
  });

  it('keeps the lines of a second column together: indentation is against the line before, and moving up starts a block', () => {
    const lines = [
      line('Left one', 10, 0),
      line('left two', 10, 24),
      line('Right one', 400, 0),
      line('right two', 400, 24),
      line('Right indented', 430, 48),
      line('right end', 400, 72),
    ];
    expect(shape(lines)).toEqual([
      ['Left one', 'left two'],
      ['Right one', 'right two'],
      ['Right indented', 'right end'],
    ]);
  });

  it('keeps a centred display equation inside its paragraph', () => {
    const lines = [line('We have', 10, 0), line('x^2', 120, 24, 'math'), line('for all x.', 10, 48)];
    expect(shape(lines)).toEqual([['We have', 'x^2', 'for all x.']]);
  });

  it('groups bulleted lines into a list, with wrapped lines continuing their item', () => {
    // Items a line height apart (LaTeX's \itemsep), more bullets than prose lines at the left.
    const lines = [
      line('Shopping:', 10, 0),
      line('· Bread', 30, 30),
      line('· Milk and a dozen eggs, which', 30, 70),
      line('should last', 52, 94),
      line('●Apples', 30, 134),
      line('Back to prose.', 10, 180),
      line('Indented.', 40, 204),
    ];
    expect(shape(lines)).toEqual([
      ['Shopping:'],
      { list: ['· Bread', '· Milk and a dozen eggs, which should last', '●Apples'] },
      ['Back to prose.'],
      ['Indented.'],
    ]);
  });

  it('nests a list by indent, as a text layer does (lists.ts), and keeps it nested through the stored layout', () => {
    const lines = [line('• Warm clothes', 30, 0), line('– a wool jumper', 60, 30), line('– gloves', 60, 60), line('• Food', 30, 90)];
    const [list] = textBlocks(lines, (l) => l.box);
    expect(list).toMatchObject({ kind: 'list', items: [{ depth: 0 }, { depth: 1 }, { depth: 1 }, { depth: 0 }] });
    const page = assemblePage({ lines, width: 400, height: 200 });
    expect(pageBlocks(page)).toEqual([list]);
    expect(linesToMmd(lines, {}, false)).toBe(
      '\\begin{itemize}\n\\item Warm clothes\n\\begin{itemize}\n\\item a wool jumper\n\\item gloves\n\\end{itemize}\n\\item Food\n\\end{itemize}',
    );
  });

  it('finds a run of monospaced lines that reads like code, and leaves monospaced prose alone', () => {
    const PITCH = 12;
    /** A line whose words are boxed as a fixed-pitch font sets them (one pitch per character and per space). */
    const mono = (text: string, y: number, indent = 0): PageLine => {
      let x = 10 + indent * PITCH;
      const words = text.split(' ').map((t) => {
        const w = { text: t, confidence: 0.99, box: { x, y, width: t.length * PITCH + 4, height: 20 } };
        x += (t.length + 1) * PITCH;
        return w;
      });
      return { ...line(text, 10 + indent * PITCH, y), words };
    };
    const proportional = (text: string, y: number): PageLine => {
      let x = 10;
      const words = text.split(' ').map((t, i) => {
        const w = { text: t, confidence: 0.99, box: { x, y, width: t.length * (i % 2 ? 6 : 13), height: 20 } };
        x += w.box.width + 8;
        return w;
      });
      return { ...line(text, 10, y), words };
    };
    const lines = [proportional('Here is the loop we use', 0), mono('for (int i = 0; i < n; i++) {', 24), mono('total += values[i];', 48, 4), mono('}', 72)];
    expect(shape(lines)).toEqual([['Here is the loop we use'], { code: ['for (int i = 0; i < n; i++) {', 'total += values[i];', '}'] }]);
    expect(shape([mono('The quick brown fox jumps', 0), mono('over the lazy dog again', 24)])).toEqual([
      ['The quick brown fox jumps', 'over the lazy dog again'],
    ]);
  });

  it('finds a table in rows of cells that keep to the same columns, an empty cell included', () => {
    const cell = (t: string, x: number, y: number, width: number): PageLine => ({ ...line(t, x, y), box: { x, y, width, height: 20 } });
    const lines = [
      line('Measured densities', 10, 0),
      cell('Metal', 10, 40, 50),
      cell('Density', 120, 40, 60),
      cell('Melting point', 220, 40, 110),
      cell('Iron', 10, 70, 35),
      cell('7.87', 147, 70, 33),
      cell('1538', 290, 70, 40),
      cell('Copper', 10, 100, 60),
      cell('1085', 290, 100, 40),
      cell('Gold', 10, 130, 38),
      cell('19.32', 135, 130, 45),
      cell('1064', 290, 130, 40),
      line('Back to prose.', 10, 170),
    ];
    expect(shape(lines)).toEqual([
      ['Measured densities'],
      {
        table: [
          ['Metal', 'Density', 'Melting point'],
          ['Iron', '7.87', '1538'],
          ['Copper', '', '1085'],
          ['Gold', '19.32', '1064'],
        ],
        align: 'lrr',
      },
      ['Back to prose.'],
    ]);
  });

  it('needs three rows of cells that agree: two text columns side by side are no table', () => {
    const cell = (t: string, x: number, y: number, width: number): PageLine => ({ ...line(t, x, y), box: { x, y, width, height: 20 } });
    const twoRows = [cell('Title', 10, 0, 100), cell('2024', 300, 0, 40), cell('Author', 10, 30, 80), cell('page 3', 280, 30, 60)];
    expect(shape(twoRows).some((b) => 'table' in b)).toBe(false);
    const skewed = [
      cell('a b c', 10, 0, 100),
      cell('d e', 200, 0, 100),
      cell('f g h', 10, 30, 250),
      cell('i', 300, 30, 50),
      cell('j', 10, 60, 40),
      cell('k', 200, 60, 40),
    ];
    expect(shape(skewed).some((b) => 'table' in b)).toBe(false);
    const prose = [0, 1, 2].flatMap((n) => [
      cell('words of the left column run on and on here', 10, n * 30, 250),
      cell('and the right column runs on in the same way', 300, n * 30, 250),
    ]);
    expect(shape(prose).some((b) => 'table' in b)).toBe(false);
  });

  it('does not take a hyphenated word or a minus sign for a bullet', () => {
    expect(shape([line('-5 degrees', 10, 0), line('well-known', 10, 24)])).toEqual([['-5 degrees', 'well-known']]);
  });

  describe('headings', () => {
    const sized = (text: string, x: number, y: number, height: number, width = 150): PageLine => ({ ...line(text, x, y), box: { x, y, width, height } });
    const body = (y: number) => [
      line('The body of the section runs on', 10, y),
      line('over a few lines of ordinary', 10, y + 24),
      line('prose set at the body size.', 10, y + 48),
    ];

    it('makes a short line standing alone and set larger than the body a heading, level 1 or 2 by its size', () => {
      expect(shape([sized('A Study of Heat', 10, 0, 34), ...body(60), sized('Introduction', 10, 150, 23.5), ...body(200)])).toEqual([
        { h1: 'A Study of Heat' },
        ['The body of the section runs on', 'over a few lines of ordinary', 'prose set at the body size.'],
        { h2: 'Introduction' },
        ['The body of the section runs on', 'over a few lines of ordinary', 'prose set at the body size.'],
      ]);
      // A lone large line with no body to compare with is no heading; nor is a large line inside a paragraph.
      expect(shape([sized('Big words', 10, 0, 34)])).toEqual([['Big words']]);
      expect(shape([line('The body of the section runs on', 10, 0), sized('larger words', 10, 24, 30), ...body(58)])).toHaveLength(1);
    });

    it('keeps a section number and its title read side by side as one heading, at the level of its depth', () => {
      const lines = [
        ...body(0),
        { ...line('2.1', 10, 100), box: { x: 10, y: 100, width: 30, height: 20 } },
        { ...line('General Information', 60, 101), box: { x: 60, y: 101, width: 200, height: 20 } },
        ...body(140),
      ];
      expect(shape(lines)).toEqual([
        ['The body of the section runs on', 'over a few lines of ordinary', 'prose set at the body size.'],
        { h3: '2.1 General Information' },
        ['The body of the section runs on', 'over a few lines of ordinary', 'prose set at the body size.'],
      ]);
      expect(shape([...body(0), line('3 Results', 10, 100), ...body(140)])[1]).toEqual({ h2: '3 Results' });
      // The number's box reaching into its title's, and the number read by the maths engine.
      const number: PageLine = { ...line('', 10, 100, 'math'), box: { x: 10, y: 102, width: 30, height: 16 } };
      number.math = { latex: '3', confidence: 0.9, confidenceRate: 0.9, symbolCount: 1 };
      const title = { ...line('Boundary conditions', 30, 99), box: { x: 30, y: 99, width: 200, height: 21 } };
      const lines2 = [...body(0), number, title, ...body(140)];
      expect(textBlocks(lines2, (l) => l.box)[1]).toMatchObject({ kind: 'heading', level: 2, lines: [number, title] });
      expect(linesToMmd(lines2, {}, false)).toContain('\n\n## 3 Boundary conditions\n\n');
      // Read as one line with a wide gap after the number, it is written with one space.
      expect(linesToMmd([...body(0), line('3  Boundary  conditions', 10, 100), ...body(140)], {}, false)).toContain('\n\n## 3 Boundary conditions\n\n');
    });

    it('takes no full line of body text for a heading by size, however tall its box (letters make boxes vary)', () => {
      const lines = [...body(0), line('3 Results', 10, 100), sized('With both ends held at zero the wave numbers are', 10, 140, 24, 290), ...body(190)];
      expect(shape(lines).slice(1, 3)).toEqual([{ h2: '3 Results' }, ['With both ends held at zero the wave numbers are']]);
    });

    it('takes numbered list items for a numbered list, and sentences and long lines for text, not headings', () => {
      const list = [line('1. Fresh bread', 10, 0), line('2. Two litres of milk', 10, 40), line('3. Apples', 10, 80)];
      expect(shape(list)).toEqual([{ list: ['1. Fresh bread', '2. Two litres of milk', '3. Apples'] }]);
      expect(textBlocks(list, (l) => l.box)[0]).toMatchObject({ items: [{ marker: '1. ' }, { marker: '2. ' }, { marker: '3. ' }] });
      expect(linesToMmd(list, {}, false)).toBe('\\begin{itemize}\n\\item[1.] Fresh bread\n\\item[2.] Two litres of milk\n\\item[3.] Apples\n\\end{itemize}');
      expect(shape([...body(0), line('2 Results are shown below.', 10, 100), ...body(140)]).some((b) => !Array.isArray(b))).toBe(false);
    });
  });
});
