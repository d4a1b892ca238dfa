import { describe, expect, it } from 'vitest';
import type { Block } from '../blocks-model.js';
import { type LineReader, renderBlocks } from './page-mmd.js';

/** Lines as plain strings at a height: the renderer's decisions without a source's reading. */
interface Line {
  text: string;
  top: number;
}
const reader = (keepsBreaks: boolean): LineReader<Line> => ({
  keepsBreaks,
  text: (l) => l.text,
  mmd: (l) => l.text,
  isDisplay: () => false,
  displayLatex: (l) => l.text,
  headingMmd: (l) => l.text,
  itemStart: (l) => ({ marker: l.text.slice(0, 2), mmd: l.text.slice(2) }),
  codeLines: (b) => b.lines.map((l) => l.text),
  region: (l) => ({ x0: 0, x1: 100, top: l.top }),
});
const at = (text: string, top: number): Line => ({ text, top });

describe('renderBlocks', () => {
  const list: Block<Line> = {
    kind: 'list',
    items: [
      { marker: '- ', depth: 0, lines: [at('• one', 10)] },
      { marker: '- ', depth: 1, lines: [at('◦ inner', 20)] },
      { marker: '- ', depth: 0, lines: [at('• two', 30), at('wrapped', 40)] },
    ],
  };

  it('writes nested itemize environments, or with disable_itemize one item a line with its marker indented', () => {
    const page = renderBlocks([list], reader(true), {});
    expect(page.mmd).toBe('\\begin{itemize}\n\\item one\n\\begin{itemize}\n\\item inner\n\\end{itemize}\n\\item two wrapped\n\\end{itemize}');
    expect(renderBlocks([list], reader(true), { disable_itemize: true }).mmd).toBe('• one\n  ◦ inner\n• two wrapped');
    for (const r of page.lines) expect(page.mmd.slice(r.start, r.end)).toBe(r.mmd);
  });

  it('closes a list where a figure stands between its items and opens it again after', () => {
    const figure = { name: 'f', mmd: '![](f.png)', box: { x0: 0, y0: 25, x1: 100, y1: 28 } };
    const page = renderBlocks([list], reader(true), {}, [figure]);
    expect(page.mmd).toBe(
      '\\begin{itemize}\n\\item one\n\\begin{itemize}\n\\item inner\n\\end{itemize}\n\\end{itemize}\n\n![](f.png)\n\n\\begin{itemize}\n\\item two wrapped\n\\end{itemize}',
    );
    expect(page.figures.map((f) => page.mmd.slice(f.start, f.end))).toEqual(['![](f.png)']);
  });

  it('keeps lines read from pixels as read, and joins a text layer’s lines and the words a hyphen broke', () => {
    const paragraph: Block<Line> = { kind: 'paragraph', lines: [at('a word bro-', 0), at('ken here', 10)] };
    expect(renderBlocks([paragraph], reader(true), {}).mmd).toBe('a word bro-\nken here');
    expect(renderBlocks([paragraph], reader(false), {}).mmd).toBe('a word broken here');
  });

  it('writes code as a listing, or a fence with disable_lstlisting', () => {
    const code: Block<Line> = { kind: 'code', lines: [at('x = 1', 0), at('  y', 10)], pitch: 5 };
    expect(renderBlocks([code], reader(true), {}).mmd).toBe('\\begin{lstlisting}\nx = 1\n  y\n\\end{lstlisting}');
    expect(renderBlocks([code], reader(true), { disable_lstlisting: true }).mmd).toBe('```\nx = 1\n  y\n```');
  });

  it('gives each cell of a table its own place in the MMD, or the whole table to the line that stands for it', () => {
    const grid = { rows: [[at('a & b', 0), undefined, at('1', 0)]], align: ['l', 'l', 'r'] as const };
    const cells = renderBlocks([{ kind: 'table', grid: { ...grid, align: [...grid.align] } }], reader(true), {});
    expect(cells.mmd).toBe('\\begin{tabular}{|l|l|r|}\n\\hline a \\& b &  & 1 \\\\\n\\hline\n\\end{tabular}');
    expect(cells.lines.map((r) => [r.line.text, r.mmd, cells.mmd.slice(r.start, r.end)])).toEqual([
      ['a & b', 'a \\& b', 'a \\& b'],
      ['1', '1', '1'],
    ]);
    const whole = at('the table', 0);
    const one = renderBlocks([{ kind: 'table', grid: { ...grid, align: [...grid.align] }, whole }], reader(false), {});
    expect(one.lines).toEqual([{ line: whole, type: 'table', mmd: one.mmd, start: 0, end: one.mmd.length }]);
  });
});
