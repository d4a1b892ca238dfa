import { describe, expect, it } from 'vitest';
import type { PageLine } from '../../../page/model.js';
import { styleLatex } from '../../../page/render/mmd.js';
import { linesToMmd } from '../../../page/render/image-page.js';
import { assemblePage } from '../../../page/assemble.js';
import type { PageRecognition } from '../../../page/model.js';
import { assemblyOf, buildTextResult, confidences } from './text-result.js';
import type { TextOptions } from './text-options.js';

/** The result of an image the inference worker read as `read` and assembled as asked. */
const build = (id: string, read: PageRecognition, opts: TextOptions) => buildTextResult(id, assemblePage(read, assemblyOf(opts)), opts);
const box = { x: 0, y: 0, width: 10, height: 10 };
const text = (t: string, confidence = 0.9): PageLine => ({ text: t, confidence, box, kind: 'text' });
const math = (latex: string, confidence = 0.5, confidenceRate = 0.8, symbolCount = 4): PageLine => ({
  text: '',
  confidence,
  box,
  kind: 'math',
  math: { latex, confidence, confidenceRate, symbolCount },
});

describe('maths in /v3/text answers', () => {
  it('puts maths lines between display delimiters among text lines, the caller’s pair when given', () => {
    const lines = [text('We have'), math('x^{2} = 1'), text('for all x.')];
    expect(linesToMmd(lines, {}, false)).toBe('We have\n\\[\nx^{2}=1\n\\]\nfor all x.');
    expect(linesToMmd(lines, { math_display_delimiters: ['$$', '$$'], rm_spaces: false }, false)).toBe('We have\n$$\nx^{2} = 1\n$$\nfor all x.');
  });

  it('gives a whole-image equation inline delimiters and latex_styled when asked for', async () => {
    const r = await build(
      'id',
      { lines: [math('\\frac{a}{b}')], width: 10, height: 10, formula: { latex: '\\frac{a}{b}', confidence: 0.5, confidenceRate: 0.8, symbolCount: 4 } },
      { formats: ['text', 'latex_styled'], math_inline_delimiters: ['$', '$'] },
    );
    expect(r).toMatchObject({ text: '$\\frac{a}{b}$', latex_styled: '\\frac{a}{b}', confidence: 0.5, confidence_rate: 0.8 });
  });

  it('applies rm_fonts, idiomatic_braces, idiomatic_eqn_arrays (and include_equation_tags) to equations', () => {
    expect(styleLatex('\\mathbf{x}^{2}_{i} + \\mathrm{d}', { rm_fonts: true, idiomatic_braces: true })).toBe('x^2_i+d');
    const cases = '|x|=\\begin{cases}x & x>0 \\\\ -x & x\\leq 0\\end{cases}';
    expect(styleLatex(cases, {})).toBe('|x|=\\left\\{\\begin{array}{ll}x&x>0 \\\\-x&x\\leq0\\end{array}\\right.');
    expect(styleLatex(cases, { idiomatic_eqn_arrays: true })).toContain('\\begin{cases}');
    expect(styleLatex(cases, { include_equation_tags: true })).toContain('\\begin{cases}');
  });

  it('writes inline maths in the caller’s inline delimiters, with no space before the punctuation after it', () => {
    const w = (t: string) => ({ text: t, confidence: 0.9, box });
    const mixed: PageLine = {
      ...text('The identity x? + y? = z2 holds, so'),
      segments: [
        { kind: 'text', words: [w('The'), w('identity')] },
        { kind: 'math', math: { latex: 'x^{2} + y^{2}', confidence: 0.8, confidenceRate: 0.9, symbolCount: 5 }, box },
        { kind: 'text', words: [w(','), w('so')] },
      ],
    };
    expect(linesToMmd([mixed], {}, false)).toBe('The identity \\( x^{2}+y^{2} \\), so');
    // quality per unit: the words' characters at 0.9 and 5 symbols at 0.9 (the line's own confidence is no rate)
    expect(confidences([{ ...mixed, confidence: 0.1 }]).confidence_rate).toBeCloseTo(0.9, 6);
    expect(linesToMmd([mixed], { math_inline_delimiters: ['$', '$'], rm_spaces: false }, false)).toBe('The identity $x^{2} + y^{2}$, so');
  });

  it('writes bulleted lines as an itemize environment, or as read with disable_itemize; paragraphs apart', () => {
    const at = (t: string, x: number, y: number): PageLine => ({ ...text(t), box: { x, y, width: 100, height: 10 } });
    const lines = [at('Intro line', 0, 0), at('• First item', 10, 30), at('• Second', 10, 42), at('wrapped', 22, 54)];
    expect(linesToMmd(lines, {}, false)).toBe('Intro line\n\n\\begin{itemize}\n\\item First item\n\\item Second wrapped\n\\end{itemize}');
    expect(linesToMmd(lines, { disable_itemize: true }, false)).toBe('Intro line\n\n• First item\n• Second wrapped');
  });

  it('writes code as a listing with its indentation, or fenced with disable_lstlisting, maths left plain', () => {
    // Courier-like boxes: 10 px per character and per space.
    const code = (t: string, y: number, indent: number): PageLine => {
      let x = indent * 10;
      const words = t.split(' ').map((w) => {
        const word = { text: w, confidence: 0.99, box: { x, y, width: w.length * 10 + 3, height: 10 } };
        x += (w.length + 1) * 10;
        return word;
      });
      return { ...text(t), box: { x: indent * 10, y, width: x, height: 10 }, words };
    };
    const lines = [code('def area(r):', 0, 0), code('return pi * r ** 2', 12, 4)];
    lines[1]!.segments = [{ kind: 'math', math: { latex: '\\pi r^{2}', confidence: 0.9, confidenceRate: 0.9, symbolCount: 3 }, box }];
    expect(linesToMmd(lines, {}, false)).toBe('\\begin{lstlisting}\ndef area(r):\n    return pi * r ** 2\n\\end{lstlisting}');
    expect(linesToMmd(lines, { disable_lstlisting: true }, false)).toBe('```\ndef area(r):\n    return pi * r ** 2\n```');
  });

  it('puts every number of the prose in inline maths with numbers_default_to_math, not those inside words', () => {
    const lines = [text('42'), text('Page 3'), text('Answer: 17. Mix (2) parts of H2O in 3D, 1,000 or -5')];
    expect(linesToMmd(lines, { numbers_default_to_math: true }, false)).toBe(
      '\\( 42 \\)\nPage \\( 3 \\)\nAnswer: \\( 17 \\). Mix (\\( 2 \\)) parts of H2O in 3D, \\( 1,000 \\) or \\( -5 \\)',
    );
    expect(linesToMmd(lines, {}, false)).toBe('42\nPage 3\nAnswer: 17. Mix (2) parts of H2O in 3D, 1,000 or -5');
    // A numbered item keeps its number as printed, as its label.
    expect(linesToMmd([text('1. First of 2'), text('2. And 3 more')], { numbers_default_to_math: true }, false)).toContain('\\item[1.] First of \\( 2 \\)');
  });

  it('answers math_confidence below confidence_rate_threshold, 0.75 unless given, but not for an empty read', async () => {
    const page = (lines: PageLine[]) => ({ lines, width: 10, height: 10 });
    await expect(build('id', page([text('blurry words', 0.7)]), {})).rejects.toMatchObject({
      id: 'math_confidence',
      extras: { confidence_rate: 0.7 },
    });
    await expect(build('id', page([text('blurry words', 0.7)]), { confidence_rate_threshold: 0.6 })).resolves.toMatchObject({ text: 'blurry words' });
    await expect(build('id', page([]), {})).resolves.toMatchObject({ text: '', confidence: 0 });
  });

  it('gives punctuation the width fullwidth_punctuation asks for, by default the width that suits the line', async () => {
    const page = (t: string) => ({ lines: [text(t)], width: 10, height: 10 });
    expect((await build('id', page('call f（x）：'), {})).text).toBe('call f(x):');
    expect((await build('id', page('中文（注）'), {})).text).toBe('中文（注）');
    expect((await build('id', page('call f(x)'), { fullwidth_punctuation: true })).text).toBe('call f（x）');
  });

  it('weights confidence_rate by characters and symbols; confidence is the product of the lines', () => {
    const c = confidences([text('abcd', 0.9), math('x', 0.5, 0.8, 6)]);
    expect(c.confidence).toBeCloseTo(0.45, 6);
    expect(c.confidence_rate).toBeCloseTo((0.9 * 4 + 0.8 * 6) / 10, 6);
  });

  it('reports a calibrated formula by its calibrated rate, and refuses or answers it by that rate', async () => {
    const calibrated = (rate: number): PageLine => {
      const line = math('x^{2}', 0.5, 0.6, 4);
      return { ...line, math: { ...line.math!, calibrated: { confidence: 0.7, rate } } };
    };
    const page = (line: PageLine) => ({ lines: [line], width: 10, height: 10 });
    // Its symbols' rate 0.6 would be refused; the calibrated rate answers it.
    await expect(build('id', page(calibrated(0.8)), {})).resolves.toMatchObject({ confidence_rate: 0.8 });
    await expect(build('id', page(calibrated(0.7)), {})).rejects.toMatchObject({ id: 'math_confidence', extras: { confidence_rate: 0.7 } });
  });
});

describe('chemistry in /v3/text answers', () => {
  const structure = {
    smiles: 'OC(=O)c1ccccc1O',
    inchi: 'InChI=1S/C7H6O3/c8-6-4-2-1-3-5(6)7(9)10/h1-4,8H,(H,9,10)',
    inchikey: 'YGSDEFSMJLZEOE-UHFFFAOYSA-N',
    confidence: 0.6,
    box: { x: 0, y: 20, width: 10, height: 10 },
  };
  const chem: PageLine = { text: '', confidence: 0.6, box: structure.box, chemistry: structure };

  it('writes a structure as <smiles> in reading order, InChI only when asked, typed chemistry in line_data, never refused for its rate', async () => {
    const read = { lines: [text('Salicylic acid:'), chem], width: 10, height: 40 };
    const r = await build('id', read, { include_smiles: true, include_line_data: true });
    expect(r.text).toBe('Salicylic acid:\n\n<smiles>OC(=O)c1ccccc1O</smiles>');
    expect((r.line_data as { type: string }[]).map((l) => l.type)).toEqual(['text', 'chemistry']);
    const withInchi = await build('id', read, { include_smiles: true, include_inchi: true, alphabets_allowed: { en: false } });
    expect(withInchi.text).toContain(`<smiles inchi="${structure.inchi}" inchikey="${structure.inchikey}">OC(=O)c1ccccc1O</smiles>`);
    const alone = await build('id', { lines: [chem], width: 10, height: 40 }, { include_smiles: true });
    expect(alone).toMatchObject({ text: '<smiles>OC(=O)c1ccccc1O</smiles>', confidence: 0.6, confidence_rate: 0.6 });
  });
});

describe('the assembled page', () => {
  it('is what the worker answers: a read without its assembly is a sys_exception', async () => {
    await expect(buildTextResult('id', { lines: [text('Hello')], width: 10, height: 10 }, {})).rejects.toMatchObject({ id: 'sys_exception' });
  });
});

describe('is_handwritten and is_printed in /v3/text answers', () => {
  const read = (more: object) => ({ lines: [text('Hello')], width: 10, height: 10, ...more });

  it("follow the worker's probability of handwriting: one or the other, neither without ink", async () => {
    expect(await build('id', read({ handwriting: 0.8 }), {})).toMatchObject({ is_handwritten: true, is_printed: false });
    expect(await build('id', read({ handwriting: 0.2 }), {})).toMatchObject({ is_handwritten: false, is_printed: true });
    // A worker without the ink-kind model: no evidence of handwriting, the ink counts as printed.
    expect(await build('id', read({}), {})).toMatchObject({ is_handwritten: false, is_printed: true });
    expect(await build('id', { lines: [], width: 10, height: 10, blank: true }, {})).toMatchObject({ is_handwritten: false, is_printed: false });
  });

  it('follow the classifier the worker read the formulas with, page and lines alike', async () => {
    const formula = (handwritten?: true) => ({ latex: 'x', confidence: 0.9, confidenceRate: 0.9, symbolCount: 1, ...(handwritten ? { handwritten } : {}) });
    const page = (handwritten?: true) => ({ ...read({ handwriting: 0.6 }), formula: formula(handwritten) });
    expect(await build('id', page(), {})).toMatchObject({ is_handwritten: false, is_printed: true });
    expect(await build('id', page(true), {})).toMatchObject({ is_handwritten: true, is_printed: false });
    const mathLine = { text: '', confidence: 0.9, box: { x: 0, y: 0, width: 10, height: 10 }, kind: 'math' as const, math: formula(true) };
    const lines = (await build('id', { lines: [text('Hello'), mathLine], width: 10, height: 20, handwriting: 0.2 }, { include_line_data: true })).line_data;
    expect((lines as { is_handwritten: boolean; is_printed: boolean }[]).map((l) => [l.is_handwritten, l.is_printed])).toEqual([
      [false, true],
      [true, false],
    ]);
  });
});
