import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { dataUrl, median, renderLatex, startMathStack } from './v3-math-support.js';

/**
 * /v3/text with maths, read by the real inference worker (text and maths models) from pages
 * typeset by pdflatex. The maths-vs-text decision is scored over every line of these pages.
 */

const FORMULA = 'x^{2}+y^{2}=\\frac{a}{b}';
const PROSE = ['The quick brown fox jumps over the lazy dog while the committee', 'considers a proposal to reorganise the library and its reading rooms.'];
const MIXED = [
  { kind: 'text', tex: 'We consider the following relation between the two quantities' },
  { kind: 'math', tex: '\\[ x^{2}+y^{2}=\\frac{a}{b} \\]' },
  { kind: 'text', tex: 'which holds for every pair of real numbers, and the identity' },
  { kind: 'math', tex: '\\[ \\sqrt{x+1}=\\frac{y}{2} \\]' },
  { kind: 'text', tex: 'follows from it by a change of variables.' },
] as const;
/** Prose lines with inline formulas, and each formula the answer must hold in inline delimiters. */
const INLINE = [
  { tex: 'The identity $x^{2}+y^{2}=z^{2}$ holds for every right triangle.', maths: ['x^{2}+y^{2}=z^{2}'] },
  { tex: 'Let $\\alpha \\leq \\frac{a}{b}$ be given, and take $n+1$ steps.', maths: ['\\alpha\\leq\\frac{a}{b}', 'n+1'] },
  { tex: 'Then $\\sqrt{x+1}=y$ and the sum $\\sum_{i=1}^{n} i$ is known.', maths: ['\\sqrt{x+1}=y', '\\sum_{i=1}^{n}i'] },
];

describe('POST /v3/text with maths (real inference worker)', () => {
  let s: Awaited<ReturnType<typeof startMathStack>>;
  let formula: Buffer;
  let prose: Buffer;
  let mixed: Buffer;
  const decisions = { right: 0, total: 0 };

  beforeAll(async () => {
    s = await startMathStack();
    formula = await renderLatex(`\\[ ${FORMULA} \\]`);
    prose = await renderLatex(`\\noindent ${PROSE.join('\\\\\n')}`, 150, 7.5);
    mixed = await renderLatex(`\\noindent ${MIXED.map((l) => (l.kind === 'math' ? l.tex : `${l.tex}\\\\`)).join('\n')}`, 150, 7);
    const warm = await s.call('POST', '/v3/text', { src: dataUrl(formula) });
    expect(warm.status, JSON.stringify(warm.body) + s.workerLog()).toBe(200);
  }, 120_000);
  afterAll(async () => {
    console.log(`maths-vs-text decisions: ${decisions.right}/${decisions.total} lines right`);
    await s?.stop();
  });

  it('reads a one-formula image as one equation: latex_styled, text in inline delimiters', async () => {
    const times: number[] = [];
    let r!: Awaited<ReturnType<typeof s.call>>;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      r = await s.call('POST', '/v3/text', {
        src: dataUrl(formula),
        formats: ['text', 'latex_styled', 'data'],
        data_options: { include_asciimath: true },
        include_line_data: true,
      });
      times.push(performance.now() - t0);
    }
    console.log(`/v3/text one formula: median ${Math.round(median(times))} ms`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(normaliseLatex(r.body.latex_styled)).toBe(normaliseLatex(FORMULA));
    expect(r.body.text).toBe(`\\( ${r.body.latex_styled} \\)`);
    expect(r.body.data).toEqual([{ type: 'asciimath', value: expect.stringContaining('/') }]);
    expect(r.body.line_data.map((l: { type: string }) => l.type)).toEqual(['math']);
    expect(r.body.confidence).toBeGreaterThan(0.1);
    expect(r.body.confidence_rate).toBeGreaterThan(0.8);
    decisions.total++;
    if (r.body.line_data[0].type === 'math') decisions.right++;
  });

  it('reads a stacked formula as one equation, never cut at the blank rows around its fraction bars', async () => {
    const fraction = await renderLatex('\\[ \\frac{3}{4} \\]');
    const r = await s.call('POST', '/v3/text', { src: dataUrl(fraction), formats: ['text', 'latex_styled'] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(normaliseLatex(r.body.latex_styled)).toBe('\\frac{3}{4}');
    const quadratic = await renderLatex('\\[ x=\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a} \\]', 200);
    const q = await s.call('POST', '/v3/text', { src: dataUrl(quadratic), formats: ['text', 'latex_styled'], include_line_data: true });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body.line_data.map((l: { type: string }) => l.type)).toEqual(['math']);
    expect(q.body.latex_styled).toMatch(/^x=\\frac\{-b\\pm\\sqrt\{.*\}\}\{2a\}$/);
  });

  it('keeps prose as text: no maths lines, no latex_styled', async () => {
    const r = await s.call('POST', '/v3/text', { src: dataUrl(prose), formats: ['text', 'latex_styled'], include_line_data: true });
    expect(r.status).toBe(200);
    expect(r.body.latex_styled).toBeUndefined();
    expect(r.body.text).not.toMatch(/\\\(|\\\[/);
    expect(r.body.text).toContain('quick brown fox');
    for (const l of r.body.line_data) {
      decisions.total++;
      if (l.type === 'text') decisions.right++;
    }
    expect(r.body.line_data.every((l: { type: string }) => l.type === 'text')).toBe(true);
  });

  it('reads a mixed page: display maths between text lines, in the caller’s delimiters', async () => {
    const times: number[] = [];
    let r!: Awaited<ReturnType<typeof s.call>>;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      r = await s.call('POST', '/v3/text', { src: dataUrl(mixed), include_line_data: true, math_display_delimiters: ['$$', '$$'] });
      times.push(performance.now() - t0);
    }
    console.log(`/v3/text mixed page (${MIXED.length} lines): median ${Math.round(median(times))} ms`);
    expect(r.status).toBe(200);
    const kinds = r.body.line_data.map((l: { type: string }) => l.type);
    MIXED.forEach((l, i) => {
      decisions.total++;
      if (kinds[i] === l.kind) decisions.right++;
    });
    expect(kinds, JSON.stringify(r.body.line_data.map((l: { type: string; text: string }) => [l.type, l.text]))).toEqual(MIXED.map((l) => l.kind));
    const maths = (r.body.text as string).split('\n').filter((_, i, all) => all[i - 1] === '$$' && all[i + 1] === '$$');
    expect(maths.map(normaliseLatex)).toContain(normaliseLatex('\\sqrt{x+1}=\\frac{y}{2}'));
    expect(r.body.text).toContain('by a change of variables.');
    expect(r.body.latex_styled).toBeUndefined();
  });

  it('reads inline maths inside prose lines, as inline maths in text, line_data and word_data', async () => {
    const page = await renderLatex(`\\noindent ${INLINE.map((l) => l.tex).join('\\\\\n')}`, 150, 6.5);
    const r = await s.call('POST', '/v3/text', { src: dataUrl(page), include_line_data: true, include_word_data: true, math_inline_delimiters: ['$', '$'] });
    expect(r.status).toBe(200);
    const lines = (r.body.text as string).split('\n');
    expect(lines, r.body.text).toHaveLength(INLINE.length);
    const found = lines.map((l) => [...l.matchAll(/\$(.+?)\$/g)].map((m) => normaliseLatex(m[1]!)));
    expect(found, r.body.text).toEqual(INLINE.map((l) => l.maths.map(normaliseLatex)));
    expect(lines[0]).toMatch(/^The identity \$\S.*\S\$ holds for every right triangle\.?$/);
    expect(r.body.line_data.map((l: { type: string; text: string }) => [l.type, l.text])).toEqual(lines.map((l) => ['text', l]));
    const formulas = r.body.word_data.filter((w: { type: string }) => w.type === 'math');
    expect(formulas.map((w: { latex: string }) => normaliseLatex(w.latex))).toEqual(INLINE.flatMap((l) => l.maths.map(normaliseLatex)));
    const words = r.body.word_data.filter((w: { type: string }) => w.type === 'text').map((w: { text: string }) => w.text);
    expect(words.slice(0, 2)).toEqual(['The', 'identity']);
    // Each word box lies inside the image and left of the next word on its line.
    const [first, second] = r.body.word_data as { cnt: [number, number][] }[];
    expect(first!.cnt[1]![0]).toBeLessThanOrEqual(second!.cnt[0]![0]);
  });

  it('separates paragraphs with a blank line and writes a bulleted list as itemize (or as read with disable_itemize)', async () => {
    const page = await renderLatex(
      '\\noindent Shopping list for the week:\\begin{itemize}\\item Fresh bread from the bakery\\item Two litres of milk and a dozen eggs, which should last until the weekend if we are careful\\item Apples\\end{itemize}First paragraph of text runs here.\\par Second paragraph starts after a break.',
      150,
      6.5,
    );
    const r = await s.call('POST', '/v3/text', { src: dataUrl(page) });
    expect(r.status).toBe(200);
    expect(r.body.text, JSON.stringify(r.body.text)).toBe(
      'Shopping list for the week:\n\n\\begin{itemize}\n\\item Fresh bread from the bakery\n\\item Two litres of milk and a dozen eggs, which should last until the weekend if we are careful\n\\item Apples\n\\end{itemize}\n\nFirst paragraph of text runs here.\n\nSecond paragraph starts after a break.',
    );
    const plain = await s.call('POST', '/v3/text', { src: dataUrl(page), disable_itemize: true });
    expect(plain.body.text).not.toContain('itemize');
    expect(plain.body.text).toContain('Fresh bread from the bakery\n');
  });

  it('writes monospaced code as a listing with its indentation, or fenced with disable_lstlisting', async () => {
    const page = await renderLatex(
      '\\noindent Here is the loop that sums the values of the array:\n\\begin{verbatim}\nint total = 0;\nfor (int i = 0; i < n; i++) {\n    total += values[i];\n}\nreturn total;\n\\end{verbatim}\nIt runs in linear time over the array and needs no extra memory at all.',
      150,
      6.5,
    );
    const r = await s.call('POST', '/v3/text', { src: dataUrl(page) });
    expect(r.status).toBe(200);
    const [intro, listing, after] = (r.body.text as string).split('\n\n');
    expect(intro).toBe('Here is the loop that sums the values of the array:');
    expect(listing!.split('\n')).toEqual([
      '\\begin{lstlisting}',
      'int total = 0;',
      expect.stringMatching(/^for \(int i = [0O]; i < n; i\+\+\) \{$/),
      '    total += values[i];',
      '}',
      'return total;',
      '\\end{lstlisting}',
    ]);
    expect(after).toMatch(/^It runs in linear time/);
    const fenced = await s.call('POST', '/v3/text', { src: dataUrl(page), disable_lstlisting: true });
    expect(fenced.body.text).toContain('```\nint total = 0;\n');
    expect(fenced.body.text).not.toContain('lstlisting');
  });

  it('reads a table image as a tabular, and gives its tsv', async () => {
    const page = await renderLatex(
      '\\noindent Measured values:\\\\[6pt]\\begin{tabular}{lrr}\\hline Metal & Density & Melting point \\\\ \\hline Iron & 7.87 & 1538 \\\\ Copper & 8.96 & 1085 \\\\ Gold & 19.32 & 1064 \\\\ \\hline \\end{tabular}',
      150,
      6.5,
    );
    const r = await s.call('POST', '/v3/text', { src: dataUrl(page), formats: ['text', 'data'], data_options: { include_tsv: true }, include_line_data: true });
    expect(r.status).toBe(200);
    expect(r.body.text).toBe(
      'Measured values:\n\n\\begin{tabular}{|l|r|r|}\n\\hline Metal & Density & Melting point \\\\\n\\hline Iron & 7.87 & 1538 \\\\\n\\hline Copper & 8.96 & 1085 \\\\\n\\hline Gold & 19.32 & 1064 \\\\\n\\hline\n\\end{tabular}',
    );
    expect(r.body.data).toEqual([{ type: 'tsv', value: 'Metal\tDensity\tMelting point\nIron\t7.87\t1538\nCopper\t8.96\t1085\nGold\t19.32\t1064' }]);
    expect(r.body.line_data.map((l: { type: string }) => l.type)).toEqual(['text', ...Array(12).fill('table')]);
  });

  it('reads two columns of prose column by column', async () => {
    const left = 'The left column starts here and carries on for a while, long enough to wrap onto several lines of its own before it ends.';
    const right = 'The right column begins at the top as well and it also goes on for several lines before it comes to its end.';
    const page = await renderLatex(
      `\\noindent\\begin{minipage}[t]{0.46\\textwidth}${left}\\end{minipage}\\hfill\\begin{minipage}[t]{0.46\\textwidth}${right}\\end{minipage}`,
      150,
      6.5,
    );
    const r = await s.call('POST', '/v3/text', { src: dataUrl(page) });
    expect(r.status).toBe(200);
    const [first, second] = (r.body.text as string).split('\n\n');
    // Lines as typeset (LaTeX hyphenates "sev-eral"): joined back for the comparison.
    const joined = (t: string) => t.replace(/-\n/g, '').replace(/\n/g, ' ');
    expect(joined(first!)).toBe(left);
    expect(joined(second!)).toBe(right);
    // A display equation in one column beside prose in the other is read apart from it.
    const beside = await renderLatex(
      '\\noindent\\begin{minipage}[t]{0.46\\textwidth}\\[ \\int_0^1 f(x)\\,dx = \\frac{a}{b} \\]\\end{minipage}\\hfill\\begin{minipage}[t]{0.46\\textwidth}The right column goes on with its prose beside the formula and then some more.\\end{minipage}',
      150,
      6.5,
    );
    const b = await s.call('POST', '/v3/text', { src: dataUrl(beside), include_line_data: true });
    const maths = b.body.line_data
      .filter((l: { type: string }) => l.type === 'math')
      .map((l: { text: string }) => normaliseLatex(l.text.replace(/^\\\[\n|\n\\\]$/g, '')));
    expect(maths).toEqual([normaliseLatex('\\int_{0}^{1}f(x)dx=\\frac{a}{b}')]);
    expect(b.body.text).toContain('The right column goes on with its prose\nbeside the formula and then some more.');
  });

  it('turns a rotated page upright before reading text and maths', async () => {
    const turned = await sharp(mixed).rotate(90).png().toBuffer();
    const r = await s.call('POST', '/v3/text', { src: dataUrl(turned), include_line_data: true, auto_rotate_confidence_threshold: 0 });
    expect(r.status).toBe(200);
    expect(r.body.auto_rotate_degrees).toBe(-90);
    expect(r.body.text).toContain('by a change of variables.');
    const kinds = r.body.line_data.map((l: { type: string }) => l.type);
    MIXED.forEach((l, i) => {
      decisions.total++;
      if (kinds[i] === l.kind) decisions.right++;
    });
    expect(kinds, JSON.stringify(r.body.line_data.map((l: { type: string; text: string }) => [l.type, l.text]))).toEqual(MIXED.map((l) => l.kind));
  });

  it('keeps a short formula upright when the text model reads it a hair better on its side', async () => {
    // Cropped close (6 px of white, as the held-out formula images are), this formula reads as text slightly better turned.
    const tight = await sharp(await renderLatex('\\[ x^T A x > 0 \\]'))
      .trim({ threshold: 10 })
      .extend({ top: 6, bottom: 6, left: 6, right: 6, background: '#ffffff' })
      .png()
      .toBuffer();
    const r = await s.call('POST', '/v3/text', { src: dataUrl(tight), formats: ['text', 'latex_styled'], auto_rotate_confidence_threshold: 0 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.auto_rotate_degrees).toBe(0);
    expect(normaliseLatex(r.body.latex_styled)).toBe(normaliseLatex('x^{T}Ax>0'));
  });

  it('leaves out a page’s running header and page number with include_page_info false (4.2 rule 3), keeps them by default', async () => {
    const page = await renderLatex(
      `\\noindent Folio Quarterly Report\\par\\vspace*{3in}\\noindent ${PROSE.join('\\\\\n')}\\par\\vspace*{3in}\\centerline{17}`,
      150,
      7.5,
    );
    const kept = await s.call('POST', '/v3/text', { src: dataUrl(page) });
    expect(kept.body.text).toMatch(/Quarterly Report[\s\S]*committee[\s\S]*17/);
    const dropped = await s.call('POST', '/v3/text', { src: dataUrl(page), include_page_info: false });
    expect(dropped.status).toBe(200);
    expect(dropped.body.text, JSON.stringify(dropped.body)).not.toMatch(/Quarterly|17/);
    expect(dropped.body.text).toContain('considers a proposal to reorganise the library');
  });
});
