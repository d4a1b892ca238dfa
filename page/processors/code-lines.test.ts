import { describe, expect, it } from 'vitest';
import type { OcrWord, PageLine } from '../model.js';
import { codeLineText, codeRuns, droppedSpaceSites, monospaceFit } from './code-lines.js';

const PITCH = 10.5;
/**
 * A line set in a fixed-pitch font, read as `read`: `typeset` is what the page says, and each
 * word the reader returns is boxed over the cells it covers on the page, dropped spaces included.
 */
function mono(typeset: string, read: string, y: number, indent = 0): PageLine {
  const x0 = 20 + indent * PITCH;
  let cell = 0;
  const words: OcrWord[] = [];
  for (const text of read.split(' ')) {
    // The word's first character's cell on the page, then its last's (spaces it swallowed count).
    const at = typeset.indexOf(text[0]!, cell);
    let end = at;
    for (const ch of text.slice(1)) end = typeset.indexOf(ch, end + 1);
    words.push({ text, confidence: 0.95, box: { x: x0 + at * PITCH, y, width: (end - at + 1) * PITCH - 3.5, height: 21 } });
    cell = end + 1;
  }
  return { text: read, confidence: 0.95, kind: 'text', box: { x: x0, y, width: typeset.length * PITCH, height: 21 }, words };
}

describe('code lines read without their one-cell spaces', () => {
  it('places dropped spaces where code puts them, never inside i++ or ->', () => {
    const at = (t: string) => droppedSpaceSites(t).map((i) => `${t.slice(0, i)}|${t.slice(i)}`);
    expect(at('for(int')).toEqual(['for|(int']);
    expect(at('n;i++){')).toEqual(['n;|i++){', 'n;i++)|{']);
    expect(at('O;i<')).toEqual(['O;|i<', 'O;i|<']);
    expect(at('p->next')).toEqual([]);
    expect(at('values[i];')).toEqual([]);
    expect(at('memory')).toEqual([]);
  });

  it('still finds the fixed pitch, and writes the listing with its spaces back', () => {
    const lines = [
      mono('int total = 0;', 'int total = 0;', 60),
      mono('for (int i = O; i < n; i++) {', 'for(int i = O;i< n;i++){', 84),
      mono('total += values[i];', 'total += values[i];', 108, 4),
      mono('}', '}', 132),
      mono('return total;', 'return total;', 156),
    ];
    const fit = monospaceFit(lines.flatMap((l) => l.words!));
    expect(fit?.pitch).toBeCloseTo(PITCH, 0);
    const [run] = codeRuns(lines);
    expect(run).toMatchObject({ start: 0, end: 5 });
    expect(lines.map((l) => codeLineText(l, 20, run!.pitch, run!.fit, (x) => x.box))).toEqual([
      'int total = 0;',
      'for (int i = O; i < n; i++) {',
      '    total += values[i];',
      '}',
      'return total;',
    ]);
  });

  it('does not take proportional prose with punctuation for a fixed-pitch font', () => {
    const widths: Record<string, number> = { i: 3, l: 3, m: 12, w: 11, ';': 3, ',': 3, '=': 8 };
    const words = 'while millions, wait; ill will x=y mmm willow'.split(' ');
    let x = 20;
    const boxes = words.map((text) => {
      const width = [...text].reduce((s, c) => s + (widths[c] ?? 7), 0);
      const w = { text, confidence: 0.95, box: { x, y: 0, width, height: 21 } };
      x += width + 5;
      return w;
    });
    expect(monospaceFit(boxes)).toBeNull();
  });
});
