import { describe, expect, it } from 'vitest';
import { tagRows } from './math-latex.js';

describe('equation numbers of a multi-line display', () => {
  const spans = [
    { y0: 100, y1: 110 },
    { y0: 120, y1: 140 },
    { y0: 150, y1: 160 },
  ];

  it('puts each number at the end of the row it is level with, rows inside nested environments left whole', () => {
    const latex = String.raw`\begin{aligned}a & =\begin{pmatrix}1 \\ 2\end{pmatrix} \\ b & =\frac{1}{2} \\ c & =d\end{aligned}`;
    const tags = [
      { tag: '1', y: 131 },
      { tag: '2', y: 154 },
    ];
    expect(tagRows(latex, spans, tags)).toBe(
      String.raw`\begin{align*}a & =\begin{pmatrix}1 \\ 2\end{pmatrix} \\ b & =\frac{1}{2} \tag{1} \\ c & =d \tag{2}\end{align*}`,
    );
    expect(tagRows(String.raw`\begin{gathered}x \\ y \\ z\end{gathered}`, spans, tags)).toBe(
      String.raw`\begin{gather*}x \\ y \tag{1} \\ z \tag{2}\end{gather*}`,
    );
  });

  it('keeps every number, as one tag, when the rows cannot be matched', () => {
    const tags = [
      { tag: '3', y: 105 },
      { tag: '4', y: 155 },
    ];
    expect(tagRows('x=1', undefined, tags)).toBe(String.raw`x=1 \tag{3, 4}`);
    expect(tagRows(String.raw`\begin{aligned}a & =b \\ c & =d\end{aligned}`, spans, tags)).toBe(
      String.raw`\begin{aligned}a & =b \\ c & =d\end{aligned} \tag{3, 4}`,
    );
  });
});
