import type { Classification } from './classifier.js';

/**
 * How often a class is the right reading, against its look-alikes, in printed maths: `\upsilon`
 * is drawn like an italic v with a curl that 150 dpi blurs away, and printed maths writes v
 * a hundred times for every upsilon. The classifier was trained on equally many crops of every
 * class, so its probabilities say nothing of that; these weights do, and a rare look-alike then
 * needs clearer evidence to win. Classes not listed weigh 1.
 */
const RARE_LOOKALIKES: Readonly<Record<string, number>> = { '\\upsilon': 0.4 };

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
