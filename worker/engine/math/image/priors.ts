import type { Classification } from './classifier.js';
import { ALPHABET_LETTERS } from './vocabulary.js';

/**
 * How much likelier than its look appears a class is, a priori, in printed maths (1 for most). The
 * classifier was trained on equally many crops of every class, but a plain capital is printed
 * dozens of times for each calligraphic, fraktur or blackboard one (the five number sets aside),
 * and those ornate shapes are what an unclear blob resembles most: `\vec{y}` fused with a bar read
 * as `\mathfrak{F}` at 6 %. Weighed by this, a letter of another alphabet wins only where its
 * shape is clear: at 0.2–0.3 pdflatex's `\mathcal{O}` still reads as itself at 300 dpi (not at 0.1)
 * and an italic x enlarged twice no longer as `\mathcal{X}` (it did at 1).
 */
const ALPHABET_LETTER_PRIOR = 0.3;
const WEIGHED_ALPHABETS = new Set(ALPHABET_LETTERS);

/**
 * A class's weight over the classifier's whole softmax row (classifier.ts), so every repair step
 * sees it; `withPriors` below weighs look-alikes among a read's candidates only, after them.
 */
export function classPrior(token: string): number {
  return WEIGHED_ALPHABETS.has(token) ? ALPHABET_LETTER_PRIOR : 1;
}

/**
 * How often a class is the right reading, against its look-alikes, in printed maths: `\upsilon`
 * is drawn like an italic v with a curl that 150 dpi blurs away, and printed maths writes v
 * a hundred times for every upsilon. The classifier was trained on equally many crops of every
 * class, so its probabilities say nothing of that; these weights do, and a rare look-alike then
 * needs clearer evidence to win. Likewise the digit 1 against `l`, `I` and `|`: Times' 1 is an upright
 * l with a flag, and its script-size 1 read `\mathrm{l}` at 0.49 against 0.43 (`y_{l}`, `\sum_{i=l}`).
 * Classes not listed weigh 1.
 */
const RARE_LOOKALIKES: Readonly<Record<string, number>> = { '\\upsilon': 0.4, '1': 2 };

/**
 * The classification reweighed by `weights` (RARE_LOOKALIKES, print's; a hand's are
 * HANDWRITTEN_LOOKALIKES) and re-ranked; the mass of the listed readings is kept.
 */
export function withPriors(label: Classification, weights: Readonly<Record<string, number>> = RARE_LOOKALIKES): Classification {
  const candidates = [label, ...label.alternatives];
  if (!candidates.some(({ latex }) => weights[latex] !== undefined)) return label;
  const mass = candidates.reduce((sum, { confidence }) => sum + confidence, 0);
  const weighed = candidates.map(({ latex, confidence }) => ({ latex, confidence: confidence * (weights[latex] ?? 1) }));
  const scale = mass / weighed.reduce((sum, { confidence }) => sum + confidence, 0);
  const [best, ...rest] = weighed.map(({ latex, confidence }) => ({ latex, confidence: confidence * scale })).sort((a, b) => b.confidence - a.confidence);
  return { ...best, alternatives: rest };
}
