import type { MathSymbol } from '../types.js';

/**
 * Calibration of the image classifier's probabilities into the confidences the interface reports
 * (the symbols keep their probabilities for label choice; parseLayout reports them calibrated).
 * A formula's `confidence_rate` is the geometric mean of its symbols' confidences, and the spec's
 * default `confidence_rate_threshold` is 0.75; raw softmax probabilities put nearly every wrong
 * read above it. Raising each probability to a power keeps every ranking (a formula's rate becomes
 * its raw rate to the same power) and moves the cut: the exponent is fitted on half of the
 * held-out formula images (models/eval/calibrate-confidence.ts) so that 0.75 keeps at least 96 %
 * of exact reads there, and reported with its reliability table on the other half
 * (models/eval/CONFIDENCE.md).
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
