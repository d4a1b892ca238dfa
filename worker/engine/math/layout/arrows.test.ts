import { describe, expect, it } from 'vitest';
import { normaliseLatex } from '../latex-normalise.js';
import type { MathSymbol } from '../types.js';
import { parseLayout } from './index.js';

/** A PDF-style symbol (box in pt, y down); `image` drops what only a PDF knows. */
const pdf = (latex: string, [x0, y0, x1, y1]: number[], baseline: number, size = 10): MathSymbol => ({
  latex,
  box: { x0, y0, x1, y1 },
  confidence: 1,
  baseline,
  size,
});
const image = (symbols: MathSymbol[]): MathSymbol[] => symbols.map(({ latex, box }) => ({ latex, box, confidence: 0.9 }));
const read = (symbols: MathSymbol[]) => normaliseLatex(parseLayout(symbols).latex);

// Boxes as the PDF front end reports them for pdflatex output (see /tmp/briefs/parser-defects.md).
const reaction = [
  pdf('A', [-8, 3.1, -1, 10.6], 10.6),
  pdf('\\longrightarrow', [0, 5.5, 11.5, 10.7], 10.6),
  pdf('\\Delta', [2.1, 0, 7.8, 5], 5, 7),
  pdf('B', [13, 3.1, 20, 10.6], 10.6),
];
const vectorAB = [pdf('A', [0, 4.8, 6.8, 11.9], 11.9), pdf('\\longrightarrow', [0.5, 0, 14.6, 5.2], 5.1), pdf('B', [7.5, 5.1, 14.7, 11.9], 11.9)];
const hatABC = [
  pdf('\\widehat', [0, 0, 23.5, 2.6], 8.4),
  pdf('A', [0.4, 3.5, 7.2, 10.6], 10.6),
  pdf('B', [7.9, 3.8, 15.1, 10.6], 10.6),
  pdf('C', [16.1, 3.6, 23.1, 10.9], 10.6),
];
const hatA = [pdf('A', [0, 2.8, 6.8, 9.9], 9.9), pdf('\\widehat', [2, 0, 7.6, 1.8], 7.4)];
// pdflatex's `\widetilde{ab}`: the widest tilde that fits is narrower than the letters, over half the b.
const tildeAb = [pdf('a', [0.3, 5.9, 4.9, 10.4], 10.4), pdf('\\widetilde', [1.9, 0.4, 7.5, 1.6], 1.6), pdf('b', [5.7, 3.3, 9.3, 10.4], 10.4)];
const tildeXy = [pdf('x', [0, 5.9, 5.7, 10.4], 10.4), pdf('\\widetilde', [1.8, 3.4, 5.9, 4.5], 4.5), pdf('y', [6.3, 5.9, 11.2, 12.3], 10.4)];

describe('parseLayout: arrows and wide accents', () => {
  it('reads a label over a reaction arrow as \\xrightarrow', () => {
    expect(read(reaction)).toBe(normaliseLatex('A\\xrightarrow{\\Delta}B'));
    expect(read(image(reaction))).toBe(normaliseLatex('A\\xrightarrow{\\Delta}B'));
  });

  it('reads labels under an arrow as the optional argument', () => {
    const under = [...reaction.slice(0, 2), pdf('T', [3, 11.5, 8, 16], 16, 7), reaction[3]];
    expect(read(under)).toBe(normaliseLatex('A\\xrightarrow[T]{}B'));
  });

  it('keeps a plain arrow between terms', () => {
    expect(read([reaction[0], reaction[1], reaction[3]])).toBe('A\\longrightarrow B');
  });

  it('reads an arrow over several letters as \\overrightarrow', () => {
    expect(read(vectorAB)).toBe(normaliseLatex('\\overrightarrow{AB}'));
    expect(read(image(vectorAB))).toBe(normaliseLatex('\\overrightarrow{AB}'));
  });

  it('reads a wide hat over one or several letters', () => {
    expect(read(hatABC)).toBe(normaliseLatex('\\widehat{ABC}'));
    expect(read(hatA)).toBe(normaliseLatex('\\widehat{A}'));
    expect(read(image(hatABC))).toBe(normaliseLatex('\\widehat{ABC}'));
  });

  it('reads a wide tilde over the letters it mostly covers, a short one beside a tall one among them', () => {
    expect(read(tildeAb)).toBe(normaliseLatex('\\widetilde{ab}'));
    expect(read(tildeXy)).toBe(normaliseLatex('\\widetilde{x}y'));
  });
});
