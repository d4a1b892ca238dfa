import { describe, expect, it } from 'vitest';
import type { MathSymbol } from '../types.js';
import { parseLayout } from './index.js';
import { frac, g, row, sub, sup, typeset, type Item } from '../../../../test/support/typesetter.js';

/** Image-style symbols of `item` where the symbol drawn as `drawn` is relabelled as the classifier might have. */
function relabel(item: Item, drawn: string, top: string, runnerUp: string): MathSymbol[] {
  return typeset(item, 'image', 7).map((symbol) =>
    symbol.latex === drawn ? { ...symbol, latex: top, confidence: 0.6, alternatives: [{ latex: runnerUp, confidence: 0.35 }] } : symbol,
  );
}

describe('parseLayout: case and look-alike ambiguity', () => {
  it('prefers the lower-case letter when the box is x-height high', () => {
    expect(parseLayout(relabel(row('a', 'c', 'b'), 'c', 'C', 'c')).latex).toBe('acb');
    expect(parseLayout(relabel(row('a', 'o', 'b'), 'o', 'O', 'o')).latex).toBe('aob');
  });

  it('prefers the capital when the box reaches the ascender line', () => {
    expect(parseLayout(relabel(row('a', 'S', 'b'), 'S', 's', 'S')).latex).toBe('aSb');
  });

  it('prefers p when the box drops below the baseline', () => {
    expect(parseLayout(relabel(row('a', 'p', 'b'), 'p', 'P', 'p')).latex).toBe('apb');
  });

  it('prefers a bar to an l when the box spans ascender to descender', () => {
    expect(parseLayout(relabel(row('|', 'x', '|'), '|', 'l', '|')).latex).toBe('|x|');
  });

  it('keeps a top label that fits', () => {
    expect(parseLayout(relabel(row('a', 'x', 'b'), 'x', 'x', 'X')).latex).toBe('axb');
  });

  it('keeps a top label that fits as a script: the 0 of \\mu_0 is no o, the X of \\sigma_X no x', () => {
    expect(parseLayout(relabel(row(sub('\\mu', '0'), '+', 'a'), '0', '0', 'o')).latex).toBe('\\mu_{0}+a');
    expect(parseLayout(relabel(row(sub('\\sigma', 'X'), '+', 'a'), 'X', 'X', 'x')).latex).toBe('\\sigma_{X}+a');
  });

  it('measures a doubted script against its own base: the sure 0 of \\mu_0 before it pulls the line down', () => {
    // The second 0, as unsure as pdflatex's 150 dpi raster made it in `\\mu_{0}\\varepsilon_{0}\\frac{…}{…}`,
    // beside a sure 0 that hangs below the line like itself. Jitter moves edges by up to 3 %; one
    // seed in six takes the 0 off every script position.
    const read = [1, 2, 3, 4, 5, 6].map((seed) => {
      const symbols = typeset(row(sub('\\mu', '0'), sub('e', '0'), frac('a', 'b')), 'image', seed);
      const zeros = symbols.flatMap((symbol, i) => (symbol.latex === '0' ? [i] : []));
      const last = zeros.reduce((at, i) => (symbols[i]!.box.x0 > symbols[at]!.box.x0 ? i : at));
      symbols[last] = { ...symbols[last]!, confidence: 0.6, alternatives: [{ latex: 'o', confidence: 0.35 }] };
      return parseLayout(symbols).latex;
    });
    expect(read.filter((latex) => latex === '\\mu_{0}e_{0}\\frac{a}{b}').length).toBeGreaterThanOrEqual(5);
  });

  it('reads a high comma after a base as a prime', () => {
    const symbols = typeset(row(sup('f', g('\\prime')), '(x)'), 'image', 3).map((symbol) => (symbol.latex === '\\prime' ? { ...symbol, latex: ',' } : symbol));
    expect(parseLayout(symbols).latex).toBe("f'(x)");
  });

  it('reads a prime whose foot sits 0.3 em above the line (pdflatex at 300 dpi, boxes in pixels)', () => {
    const at = (latex: string, x0: number, y0: number, x1: number, y1: number): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 0.95 });
    const symbols = [
      at('f', 275, 49, 296, 88),
      at('\\prime', 298, 51, 306, 66),
      at('(', 313, 48, 323, 89),
      at('x', 327, 60, 348, 80),
      at(')', 352, 48, 362, 89),
    ];
    expect(parseLayout(symbols).latex).toBe("f'(x)");
  });

  it('records the chosen label and its probability', () => {
    const result = parseLayout(relabel(row('a', 'c', 'b'), 'c', 'C', 'c'));
    expect(result.boxes.map((box) => box.latex)).toEqual(['a', 'c', 'b']);
    expect(result.confidence).toBeCloseTo(0.95 * 0.35 * 0.95, 6);
  });
});
