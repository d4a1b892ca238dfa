import { describe, expect, it } from 'vitest';
import type { PageLine } from '../../../page/model.js';
import { assemblePage } from '../../../page/assemble.js';
import { imagePage } from '../../../page/render/image-page.js';
import { PageInfo, renderScannedPage } from './scanned-page.js';

const box = (y: number) => ({ x: 10, y, width: 200, height: 20 });
const text = (t: string, y: number): PageLine => ({ text: t, confidence: 0.99, box: box(y), kind: 'text' });
const math = (latex: string, y: number): PageLine => ({
  text: '',
  confidence: 0.9,
  box: box(y),
  kind: 'math',
  math: { latex, confidence: 0.9, confidenceRate: 0.95, symbolCount: 5 },
});

describe('renderScannedPage', () => {
  it('writes the MMD /v3/text writes for the same recognition, each line with the MMD it produced', () => {
    const read = {
      width: 400,
      height: 400,
      lines: [text('The heat equation reads', 10), math('\\frac{\\partial u}{\\partial t}=u', 40), text('for every time.', 70)],
    };
    const page = renderScannedPage({ read, scale: 0.5 }, {});
    expect(page.mmd).toBe(imagePage(assemblePage(read), {}).mmd);
    for (const l of page.lines) expect(page.mmd.slice(l.start, l.end)).toBe(l.mmd);
    expect(page.lines.map((l) => l.type)).toEqual(['text', 'math', 'text']);
    expect(page.lines[1]).toMatchObject({ line: { x0: 5, top: 20 } });
  });

  it('leaves out running heads and page numbers as a born-digital page does, lists them as page info, keeps them when asked', () => {
    const body = [text('The heat equation reads', 200), math('\\frac{\\partial u}{\\partial t}=u', 230), text('for every time.', 260)];
    const read = { width: 400, height: 1000, lines: [text('Journal of Tests 12', 20), ...body, text('7', 960)] };
    const info = new PageInfo();
    const page = renderScannedPage({ read, scale: 0.5 }, {}, [], info);
    expect(page.mmd).toBe(imagePage(assemblePage({ ...read, lines: body }), {}).mmd);
    expect(page.pageInfo.map((l) => [l.text, l.top])).toEqual([
      ['Journal of Tests 12', 10],
      ['7', 480],
    ]);
    for (const l of page.lines) expect(page.mmd.slice(l.start, l.end)).toBe(l.mmd);
    // The next page's running head sits close to its body: it is known by repetition (digits folded).
    const next = { ...read, lines: [text('Journal of Tests 13', 50), text('More prose of the body follows here.', 75), text('8', 960)] };
    expect(renderScannedPage({ read: next, scale: 0.5 }, {}, [], info).mmd).toBe('More prose of the body follows here.');
    expect(renderScannedPage({ read, scale: 0.5 }, {}, [], new PageInfo(true)).mmd).toBe(imagePage(assemblePage(read), {}).mmd);
  });

  it('gives a page that is one equation its MMD on its one line', () => {
    const read = { width: 400, height: 60, lines: [math('x^{2}', 10)], formula: { latex: 'x^{2}', confidence: 0.9, confidenceRate: 0.95, symbolCount: 2 } };
    const page = renderScannedPage({ read, scale: 1 }, {});
    expect(page.lines.map((l) => l.mmd)).toEqual([page.mmd]);
  });
});
