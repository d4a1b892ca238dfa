import type { MathSymbol } from '../types.js';

/**
 * The scale of the image classifier's probabilities in the engine's results (the symbols keep
 * their probabilities for label choice; parseLayout reports them raised to CONFIDENCE_EXPONENT).
 * Raw softmax probabilities sit close to 1 even on wrong reads; raising each to a power keeps
 * every ranking and spreads them, so a formula's per-symbol rate (the geometric mean) separates
 * sure reads from unsure ones on one scale: the inference worker's maths-or-text thresholds
 * (inference/line-kind.ts) and inline formulas are measured on it. The exponent was fitted when
 * this rate was the reported confidence_rate (0.75 kept 96 % of exact reads). What /v3/text and
 * /v3/latex now report for a printed formula read as a line or a whole image is its calibrated
 * chance of being exact (inference/formula-confidence.ts, models/eval/CONFIDENCE.md).
 */
export const CONFIDENCE_EXPONENT = 2.3;

/** A classifier probability (or a geometric mean of them) on the calibrated scale the results report. */
export function calibratedConfidence(probability: number): number {
  return probability ** CONFIDENCE_EXPONENT;
}

/** The symbol marked with the exponent its reported confidence takes (applied by parseLayout). */
export function calibrateSymbol(symbol: MathSymbol, exponent = CONFIDENCE_EXPONENT): MathSymbol {
  return { ...symbol, confidenceExponent: exponent };
}
