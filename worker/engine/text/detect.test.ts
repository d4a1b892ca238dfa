import { beforeAll, describe, expect, it } from 'vitest';
import { renderLatex } from '../../../test/support/render-latex.js';
import { stripsOf } from './detect.js';
import { TextRecognizer } from './index.js';

describe('strips of a page far taller than wide', () => {
  it('covers the page with overlapping strips, each line owned by one', () => {
    const strips = stripsOf(1575, 10944);
    expect(strips[0]!.top).toBe(0);
    expect(strips.at(-1)!.bottom).toBe(10944);
    for (const [k, s] of strips.entries()) {
      if (k === 0) continue;
      const before = strips[k - 1]!;
      expect(before.bottom - s.top).toBeGreaterThanOrEqual(0.15 * 1575 - 1); // overlap: many lines
      expect(s.owns[0]).toBe(before.owns[1]);
    }
  });

  it('leaves pages, phone captures, formula images and wide images whole', () => {
    for (const [w, h] of [
      [1700, 2200],
      [1080, 2400],
      [200, 900],
      [10944, 1575],
    ])
      expect(stripsOf(w!, h!)).toEqual([{ top: 0, bottom: h, owns: [0, h] }]);
  });
});

describe('text on a page seven times as tall as wide', () => {
  let recognizer: TextRecognizer;
  beforeAll(async () => {
    recognizer = await TextRecognizer.load();
  }, 60_000);

  it('finds its lines (detected whole, 30 px lines shrank to 2 px and none was found)', async () => {
    const sentences = Array.from({ length: 12 }, (_, i) => `Paragraph number ${i + 1} holds a sentence of ordinary prose.`);
    // A sheet 6 inches wide and 42 tall at 200 dpi, its paragraphs spread from top to bottom.
    const body = sentences.map((s) => `\\noindent ${s}\\par\\vspace{3in}`).join('\n');
    const png = await renderLatex(body, 200, 6, 42);
    const read = await recognizer.recognize(png);
    const text = read.lines.map((l) => l.text).join('\n');
    for (let i = 1; i <= 12; i++) expect(text).toContain(`Paragraph number ${i} holds`);
  }, 120_000);
});
