import { describe, expect, it } from 'vitest';
import { cdnFigureUrl, linkedFigures, relinkFigures, v3FigureKey } from './figure-links.js';
import { relinkLinesMmd } from './render/lines-json.js';

const ID = '2025_06_01_0123456789abcdef0123';
const url = (n: number) => cdnFigureUrl('https://folio.example/cdn', `${ID}-1-${n}`, { top_left_x: 10, top_left_y: 20, width: 300, height: 200 });

describe('figure links', () => {
  it('finds crop links in MMD, HTML and relative form, and leaves other images alone', () => {
    const text = `![](${url(1)}) and <img src="${url(2).replaceAll('&', '&amp;')}" /> and ![](paper.images/${ID}-1-3.jpg) but ![](https://elsewhere.org/photo.png)`;
    expect(linkedFigures(text)).toEqual([`${ID}-1-1`, `${ID}-1-2`, `${ID}-1-3`]);
  });

  it('rewrites chosen links and maps offsets past them', () => {
    const mmd = `Intro.\n\n![](${url(1)})\n\nMiddle.\n\n![](${url(2)})\n\nEnd.`;
    const names = new Set([`${ID}-1-1`, `${ID}-1-2`]);
    const r = relinkFigures(mmd, names, (n) => `images/${n}.jpg`);
    expect(r.text).toBe(`Intro.\n\n![](images/${ID}-1-1.jpg)\n\nMiddle.\n\n![](images/${ID}-1-2.jpg)\n\nEnd.`);
    const end = mmd.indexOf('End.');
    expect(r.text.slice(r.offset(end))).toBe('End.');
    expect(r.offset(3)).toBe(3);
  });

  it('keeps lines.mmd.json offsets true to the rewritten MMD', () => {
    const link = `![](${url(1)})`;
    const mmd = `Intro.\n\n${link}\n\nEnd.`;
    const at = mmd.indexOf(link);
    const lines = {
      pages: [
        {
          page: 1,
          page_width: 612,
          page_height: 792,
          lines: [
            {
              id: '1-1',
              type: 'image',
              text: link,
              region: { top_left_x: 0, top_left_y: 0, width: 1, height: 1 },
              font_size: 0,
              conversion_output: true,
              mmd_start: at,
              mmd_end: at + link.length,
            },
            {
              id: '1-2',
              type: 'text',
              text: 'End.',
              region: { top_left_x: 0, top_left_y: 0, width: 1, height: 1 },
              font_size: 10,
              conversion_output: true,
              mmd_start: mmd.indexOf('End.'),
              mmd_end: mmd.length,
            },
          ],
        },
      ],
    };
    const names = new Set([`${ID}-1-1`]);
    const to = (n: string) => `images/${n}.jpg`;
    const doc = relinkFigures(mmd, names, to);
    const out = JSON.parse(relinkLinesMmd(JSON.stringify(lines), doc, names, to));
    for (const l of out.pages[0].lines) expect(doc.text.slice(l.mmd_start, l.mmd_end)).toBe(l.text);
    expect(out.pages[0].lines[0].text).toBe(`![](images/${ID}-1-1.jpg)`);
  });

  it('turns only well-formed /v3/pdf crop names into storage keys', () => {
    expect(v3FigureKey(`${ID}-12-3.jpg`)).toBe(`v3/pdf/${ID}/images/${ID}-12-3.jpg`);
    for (const bad of [`../${ID}-1-1.jpg`, `${ID}-1-1.jpg/..`, `${ID}.mmd`, `${ID}-1-1.png`, 'a-1-1.jpg', `${ID}-1-1.jpg\n`])
      expect(v3FigureKey(bad)).toBeUndefined();
  });
});
