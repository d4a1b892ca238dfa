import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../engine/math/layout/index.js';
import type { MathSymbol } from '../engine/math/types.js';
import { exactChance, FEATURES, formulaFeatures, loadFormulaConfidence, rateOf, secondReadAgreement } from './formula-confidence.js';

/** `x+1=y` as the image front end hands it over: boxes on one baseline, each with its probability and a runner-up. */
function symbols(probabilities: number[], runnerUp = 0.01): MathSymbol[] {
  const rows = { x: [14, 30], '+': [15, 27], '1': [10, 30], '=': [18, 24], y: [14, 34] } as const;
  return (['x', '+', '1', '=', 'y'] as const).map((latex, i) => ({
    latex,
    box: { x0: i * 20, y0: rows[latex][0], x1: i * 20 + 12, y1: rows[latex][1] },
    confidence: probabilities[i]!,
    alternatives: [{ latex: latex === '1' ? 'l' : 'z', confidence: Math.min(runnerUp, 1 - probabilities[i]!) }],
  }));
}

/** A read and its evidence; the second reading (at twice the size) agrees unless it is given. */
const evidence = (probabilities: number[], text: string, runnerUp?: number, secondLatex?: string) => {
  const s = symbols(probabilities, runnerUp);
  const result = parseLayout(s);
  return { symbols: s, result, text, second: secondLatex === undefined ? result : { ...result, latex: secondLatex } };
};

/** The spec's default confidence_rate_threshold (4.2). */
const DEFAULT_CONFIDENCE_RATE_THRESHOLD = 0.75;

const feature = (values: number[], name: (typeof FEATURES)[number]) => values[FEATURES.indexOf(name)]!;

describe('formula evidence', () => {
  it('measures the least sure symbol, the margins, and how far the text read agrees', () => {
    const sure = formulaFeatures(evidence([0.99, 0.99, 0.99, 0.99, 0.99], 'x+1=y'));
    const unsure = formulaFeatures(evidence([0.99, 0.99, 0.4, 0.99, 0.99], 'x+l=y', 0.35));
    expect(feature(sure, 'min_log_p')).toBeCloseTo(Math.log(0.99), 6);
    expect(feature(unsure, 'min_log_p')).toBeCloseTo(Math.log(0.4), 6);
    expect(feature(unsure, 'unsure_share')).toBeCloseTo(1 / 5, 6);
    expect(feature(unsure, 'min_margin')).toBeCloseTo(0.05, 6);
    expect(feature(sure, 'text_agreement')).toBe(1);
    expect(feature(unsure, 'text_agreement')).toBeCloseTo(0.8, 6); // one of five characters differs
    expect(feature(formulaFeatures(evidence([0.99, 0.99, 0.99, 0.99, 0.99], '')), 'text_read')).toBe(0);
  });

  it('measures whether the second reading agrees', () => {
    const same = formulaFeatures(evidence([0.9, 0.9, 0.9, 0.9, 0.9], 'x+1=y'));
    const other = formulaFeatures(evidence([0.9, 0.9, 0.9, 0.9, 0.9], 'x+1=y', 0.01, 'x+l=y'));
    expect([feature(same, 'second_read_same'), feature(same, 'second_read_agreement')]).toEqual([1, 1]);
    expect(feature(other, 'second_read_same')).toBe(0);
    expect(feature(other, 'second_read_agreement')).toBeCloseTo(0.8, 6); // one token of five differs
  });

  it('counts a binomial and the two-row parenthesised column it prints as the same reading', () => {
    const read = (latex: string) => ({ ...parseLayout(symbols([0.9, 0.9, 0.9, 0.9, 0.9])), latex });
    const binomial = read('\\binom{52}{5}=\\binom{n}{\\frac{k}{2}}');
    const column = read('\\begin{pmatrix}52 \\\\ 5\\end{pmatrix}=\\binom{n}{\\frac{k}{2}}');
    expect(secondReadAgreement(binomial, column)).toEqual([1, 1]);
    expect(secondReadAgreement(binomial, read('\\binom{52}{6}=\\binom{n}{\\frac{k}{2}}'))[0]).toBe(0);
  });
});

describe('the shipped formula-confidence model', () => {
  it('answers a sure read both readings agree on and refuses an unsure one they do not, at the default threshold', async () => {
    const model = await loadFormulaConfidence();
    const sure = exactChance(model, formulaFeatures(evidence([0.99, 0.99, 0.99, 0.99, 0.99], 'x+1=y')));
    const unsure = exactChance(model, formulaFeatures(evidence([0.5, 0.45, 0.4, 0.6, 0.5], 'xtl', 0.4, 'x+l=y')));
    expect(sure).toBeGreaterThanOrEqual(DEFAULT_CONFIDENCE_RATE_THRESHOLD);
    expect(unsure).toBeLessThan(DEFAULT_CONFIDENCE_RATE_THRESHOLD);
    expect(sure).toBeLessThanOrEqual(1);
    expect(unsure).toBeGreaterThanOrEqual(0);
  });

  it('puts the rate knot at confidence_rate 0.75, keeping the order of chances', async () => {
    const model = await loadFormulaConfidence();
    expect(rateOf(model, model.rate_knot)).toBeCloseTo(DEFAULT_CONFIDENCE_RATE_THRESHOLD, 9);
    expect([rateOf(model, 0), rateOf(model, 1)]).toEqual([0, 1]);
    const chances = [0.05, 0.3, model.rate_knot - 0.01, model.rate_knot + 0.01, 0.9, 0.99];
    const rates = chances.map((c) => rateOf(model, c));
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
  });

  it('refuses a model fitted on other features', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-formula-confidence-'));
    const bytes = JSON.stringify({ features: ['mean_log_p'], mean: [0], scale: [1], weights: [1], bias: 0, rate_knot: 0.5 });
    await writeFile(join(dir, 'model.json'), bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await writeFile(
      join(dir, 'manifest.json'),
      JSON.stringify({ models: [{ id: 'formula-confidence', name: 'old', version: '0', path: 'model.json', sha256 }] }),
    );
    await expect(loadFormulaConfidence(join(dir, 'manifest.json'))).rejects.toThrow(/fitted on features mean_log_p/);
  });
});
