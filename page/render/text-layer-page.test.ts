import { describe, expect, it } from 'vitest';
import type { Block } from '../blocks-model.js';
import type { TextLine } from '../glyph-lines.js';
import { renderTextLayerPage } from './text-layer-page.js';

/** A glyph line of `text` at baseline y, one 5-point glyph a character from x = 72. */
function line(text: string, y: number, x0 = 72): TextLine {
  const glyphs = [...text].map((ch, i) => ({ ch, x: x0 + 5 * i, w: 5, base: y, size: 10, font: 'F1', bold: false, mathFont: false }));
  return { glyphs, x0, x1: x0 + 5 * text.length, top: y - 8, bottom: y + 2, base: y, size: 10, bold: false, text };
}

const read = { lineMmd: (l: TextLine) => l.text, displayLatex: (l: TextLine) => l.text };
const opts = { disable_itemize: true };

describe('renderTextLayerPage', () => {
  it('writes a list item a line, indented by depth, without its marker; a figure between items splits the list', () => {
    const blocks: Block<TextLine>[] = [
      { kind: 'furniture', lines: [line('Running head', 20)] },
      { kind: 'heading', level: 2, lines: [line('Results', 100)] },
      {
        kind: 'list',
        items: [
          { marker: '- ', depth: 0, lines: [line('• first', 120)] },
          { marker: '- ', depth: 1, lines: [line('• nested', 132, 90)] },
          { marker: '- ', depth: 0, lines: [line('• after the figure', 300)] },
        ],
      },
      { kind: 'paragraph', lines: [line('A word broken by a hy-', 320), line('phen joins.', 332)] },
      { kind: 'display_math', lines: [line('x^2', 350)], tag: '1' },
    ];
    const figure = { name: 'fig-1', mmd: '![](fig-1.png)', box: { x0: 72, y0: 150, x1: 300, y1: 280 } };
    const page = renderTextLayerPage(blocks, read, opts, [figure]);
    expect(page.mmd).toBe(
      ['## Results', '- first\n  - nested', '![](fig-1.png)', '- after the figure', 'A word broken by a hyphen joins.', '\\[\nx^2\n\\]'].join('\n\n'),
    );
    expect(page.pageInfo.map((l) => l.text)).toEqual(['Running head']);
    expect(page.figures).toEqual(['fig-1']);
    for (const r of page.lines) expect(page.mmd.slice(r.start, r.end)).toBe(r.mmd);
    expect(page.lines.map((r) => r.type)).toEqual(['section_header', 'list_item', 'list_item', 'image', 'list_item', 'text', 'text', 'math']);
  });

  it("writes a display block's equation number as \\tag{} only under include_equation_tags, whatever its LaTeX came from", () => {
    const blocks: Block<TextLine>[] = [{ kind: 'display_math', lines: [line('E=mc^2', 100)], tag: '3' }];
    expect(renderTextLayerPage(blocks, read, { ...opts, include_equation_tags: true }).mmd).toBe('\\[\nE=mc^2 \\tag{3}\n\\]');
    expect(renderTextLayerPage(blocks, read, opts).mmd).toBe('\\[\nE=mc^2\n\\]');
  });
});
