import { describe, expect, it } from 'vitest';
import type { PageLine } from '../../../worker/inference/page-result.js';
import { textBlocks } from './text-blocks.js';

/** A text line of height 20 at (x, y). */
const line = (text: string, x: number, y: number, kind: 'text' | 'math' = 'text'): PageLine => ({ text, confidence: 0.9, box: { x, y, width: 300, height: 20 }, kind });
const shape = (lines: PageLine[]) =>
  textBlocks(lines, (l) => l.box).map((b) =>
    b.kind === 'lines' ? b.lines.map((l) => l.text) : b.kind === 'code' ? { code: b.lines.map((l) => l.text) } : { list: b.items.map((i) => i.map((l) => l.text).join(' ')) },
  );

describe('textBlocks', () => {
  it('starts a paragraph after a gap taller than a line or at a first-line indent', () => {
    const lines = [line('Heading', 10, 0), line('First line of text', 10, 40), line('goes on here.', 10, 64), line('Indented start', 40, 88), line('and its end.', 10, 112)];
    expect(shape(lines)).toEqual([['Heading'], ['First line of text', 'goes on here.'], ['Indented start', 'and its end.']]);
  });

  it('keeps the lines of a second column together: indentation is against the line before, and moving up starts a block', () => {
    const lines = [line('Left one', 10, 0), line('left two', 10, 24), line('Right one', 400, 0), line('right two', 400, 24), line('Right indented', 430, 48), line('right end', 400, 72)];
    expect(shape(lines)).toEqual([['Left one', 'left two'], ['Right one', 'right two'], ['Right indented', 'right end']]);
  });

  it('keeps a centred display equation inside its paragraph', () => {
    const lines = [line('We have', 10, 0), line('x^2', 120, 24, 'math'), line('for all x.', 10, 48)];
    expect(shape(lines)).toEqual([['We have', 'x^2', 'for all x.']]);
  });

  it('groups bulleted lines into a list, with wrapped lines continuing their item', () => {
    // Items a line height apart (LaTeX's \itemsep), more bullets than prose lines at the left.
    const lines = [line('Shopping:', 10, 0), line('· Bread', 30, 30), line('· Milk and a dozen eggs, which', 30, 70), line('should last', 52, 94), line('●Apples', 30, 134), line('Back to prose.', 10, 180), line('Indented.', 40, 204)];
    expect(shape(lines)).toEqual([['Shopping:'], { list: ['· Bread', '· Milk and a dozen eggs, which should last', '●Apples'] }, ['Back to prose.'], ['Indented.']]);
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
    expect(shape([mono('The quick brown fox jumps', 0), mono('over the lazy dog again', 24)])).toEqual([['The quick brown fox jumps', 'over the lazy dog again']]);
  });

  it('does not take a hyphenated word or a minus sign for a bullet', () => {
    expect(shape([line('-5 degrees', 10, 0), line('well-known', 10, 24)])).toEqual([['-5 degrees', 'well-known']]);
  });
});
