import { describe, expect, it } from 'vitest';
import {
  addTally,
  classifyConstruct,
  NO_TALLY,
  latexTokens,
  levenshtein,
  markdownTable,
  matchSymbols,
  normalisedEditDistance,
  percent,
  quantile,
  summarise,
  type ScoredFormula,
} from './eval-metrics.js';
import { RULE } from './types.js';

const row = (over: Partial<ScoredFormula>): ScoredFormula => ({
  id: 'x',
  category: 'algebra',
  source: 'x',
  expected: 'x',
  got: 'x',
  ms: 1,
  ...over,
});

describe('latexTokens', () => {
  it('keeps control words, control symbols and characters apart and drops spaces', () => {
    expect(latexTokens('\\frac{a}{b} + \\alpha_{1}\\,\\{')).toEqual(['\\frac', '{', 'a', '}', '{', 'b', '}', '+', '\\alpha', '_', '{', '1', '}', '\\,', '\\{']);
  });
});

describe('edit distance', () => {
  it('counts insertions, deletions and substitutions over tokens', () => {
    expect(levenshtein(['a', 'b', 'c'], ['a', 'c'])).toBe(1);
    expect(levenshtein(['k', 'i', 't', 't', 'e', 'n'], ['s', 'i', 't', 't', 'i', 'n', 'g'])).toBe(3);
    expect(levenshtein([], ['x', 'y'])).toBe(2);
  });

  it('divides by the longer token sequence, so a control word is one token', () => {
    expect(normalisedEditDistance('\\alpha+1', '\\beta+1')).toBeCloseTo(1 / 3);
    expect(normalisedEditDistance('x^{2}', 'x^{2}')).toBe(0);
    expect(normalisedEditDistance('', '')).toBe(0);
    expect(normalisedEditDistance('ab', '')).toBe(1);
  });
});

describe('quantile', () => {
  it('interpolates the median and the 90th percentile', () => {
    expect(quantile([3, 1, 2], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([...Array(11).keys()], 0.9)).toBe(9);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('summarise', () => {
  it('scores exact matches per category and counts a thrown formula as wrong and untimed', () => {
    const summary = summarise(
      [
        row({ category: 'algebra', expected: 'x+1', got: 'x+1', ms: 10 }),
        row({ category: 'algebra', expected: 'x+1', got: 'x-1', ms: 30 }),
        row({ category: 'physics', expected: 'E=mc^{2}', got: 'E=mc^{2}', ms: 20 }),
        row({ category: 'physics', expected: 'F=ma', got: '', ms: 999, error: 'boom' }),
      ],
      ['algebra', 'physics', 'chemistry'],
    );
    expect(summary.count).toBe(4);
    expect(summary.exactRate).toBe(0.5);
    expect(summary.errors).toBe(1);
    expect(summary.medianMs).toBe(20);
    expect(summary.meanDistance).toBeCloseTo((0 + 1 / 3 + 0 + 1) / 4);
    expect(summary.exactByCategory).toEqual({ algebra: 0.5, physics: 0.5, chemistry: Number.NaN });
  });
});

describe('matchSymbols', () => {
  const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1 });

  it('pairs boxes one to one and counts label agreement, treating a rule and a minus as the same ink', () => {
    const truth = [
      { latex: 'x', box: box(0, 0, 10, 10) },
      { latex: '-', box: box(12, 4, 22, 5) },
      { latex: '1', box: box(24, 0, 30, 10) },
      { latex: 'y', box: box(40, 0, 50, 10) },
    ];
    const found = [
      { latex: 'x', box: box(1, 1, 10, 9) },
      { latex: RULE, box: box(12, 4, 22, 5) },
      { latex: 'l', box: box(24, 0, 30, 10) },
    ];
    expect(matchSymbols(truth, found)).toEqual({ truth: 4, matched: 3, agreed: 2, confusions: { '1 → l': 1, 'y → nothing': 1 } });
  });

  it('matches an ink box inside a taller font-metric box but not a box that barely touches', () => {
    const truth = [{ latex: 'a', box: box(0, -5, 10, 15) }];
    expect(matchSymbols(truth, [{ latex: 'a', box: box(1, 2, 9, 10) }]).agreed).toBe(1);
    expect(matchSymbols(truth, [{ latex: 'a', box: box(8, 2, 20, 10) }]).matched).toBe(0);
  });

  it('pairs a hairline the raster snapped a pixel away from where the PDF puts it, not one further off', () => {
    const minus = [{ latex: '-', box: box(47.3, 8.9, 57.1, 9.6) }];
    expect(matchSymbols(minus, [{ latex: RULE, box: box(47, 8, 57, 9) }])).toMatchObject({ matched: 1, agreed: 1 });
    expect(matchSymbols(minus, [{ latex: RULE, box: box(47, 11, 57, 12) }]).matched).toBe(0);
    const bar = [{ latex: '|', box: box(6.8, 6.6, 7.7, 82.2) }];
    expect(matchSymbols(bar, [{ latex: '|', box: box(6, 6, 7, 82) }]).agreed).toBe(1);
  });

  it('gives each recognised symbol to one truth symbol only', () => {
    const truth = [
      { latex: 'i', box: box(0, 0, 4, 10) },
      { latex: 'j', box: box(0, 0, 4, 12) },
    ];
    expect(matchSymbols(truth, [{ latex: 'i', box: box(0, 0, 4, 10) }])).toMatchObject({ truth: 2, matched: 1, agreed: 1 });
  });
});

describe('addTally', () => {
  it('sums counts and merges confusion counts', () => {
    const a = { truth: 3, matched: 2, agreed: 1, confusions: { 'x → X': 1, 'y → nothing': 1 } };
    const b = { truth: 2, matched: 2, agreed: 1, confusions: { 'x → X': 1 } };
    expect(addTally(addTally(NO_TALLY, a), b)).toEqual({ truth: 5, matched: 4, agreed: 2, confusions: { 'x → X': 2, 'y → nothing': 1 } });
  });
});

describe('classifyConstruct', () => {
  it('files a formula under its hardest construct', () => {
    expect(classifyConstruct('\\begin{pmatrix}1&\\frac{1}{2}\\end{pmatrix}')).toBe('matrix / determinant');
    expect(classifyConstruct('x=\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a}')).toBe('root');
    expect(classifyConstruct("f'(x)=2x")).toBe('prime');
    expect(classifyConstruct('\\mathrm{H_2O}')).toBe('upright text (chemistry, units, names)');
    expect(classifyConstruct('x+1')).toBe('plain row');
  });
});

describe('markdownTable', () => {
  it('builds a header, a rule and rows, escaping bars inside cells', () => {
    expect(
      markdownTable(
        ['a', 'b'],
        [
          ['|x|', percent(0.8766)],
          ['y', percent(Number.NaN)],
        ],
      ),
    ).toBe(['| a | b |', '| --- | --- |', '| \\|x\\| | 87.7 % |', '| y | n/a |'].join('\n'));
  });
});
