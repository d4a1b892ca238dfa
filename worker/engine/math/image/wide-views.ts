import type { Classification, SymbolClassifier } from './classifier.js';
import type { ComponentMap } from './components.js';
import type { SymbolGroup } from './merge.js';
import { squeezedCrop } from './normalise.js';

/**
 * A hand draws a symbol wider than its class usually is: an `x` of two arcs, flat and half as wide
 * again as tall, comes out of the square canvas thin and reads `\neq` or `\alpha`, while the same
 * `x` drawn narrower reads `x`. The handwriting classifier saw each class in the proportions its
 * writers drew it, so a crop wider than WIDE_ASPECT (and not flat as a bar) that it reads with a
 * probability under UNSURE is also read squeezed into a square (normalise.ts squeezedCrop), and
 * the two views' probabilities are averaged. A symbol wide by nature (`m`, `w`, `\propto`, `\sim`)
 * is read surely in its own proportions and keeps that read: averaging every wide crop cost them
 * (training writers' wide drawings 84.3 → 80.4 % right), averaging only unsure ones does not
 * (84.4 %); on held-out writers' wide drawings it reads 67.3 → 70.8 % right
 * (models/eval/HANDWRITING-IMAGE.md).
 */
export const WIDE_ASPECT = 1.3;
/** Flatter than this a crop is a bar, a tilde or an arrow: squeezed, it is a blot. */
const FLAT_ASPECT = 2;
/** A wide crop read surer than this keeps its read. */
const UNSURE = 0.3;

const isWide = (g: SymbolGroup): boolean => {
  const aspect = (g.box.x1 - g.box.x0) / Math.max(1, g.box.y1 - g.box.y0);
  return aspect > WIDE_ASPECT && aspect <= FLAT_ASPECT;
};

export async function withSqueezedViews(
  map: ComponentMap,
  glyphs: readonly SymbolGroup[],
  labels: readonly Classification[],
  classifier: SymbolClassifier,
  emPx: number | undefined,
): Promise<Classification[]> {
  const wide = glyphs.flatMap((g, i) => (isWide(g) && labels[i].confidence < UNSURE ? [i] : []));
  if (!wide.length) return [...labels];
  const squeezed = await classifier.classify(
    wide.map((i) =>
      squeezedCrop(
        map,
        glyphs[i].parts.map((c) => c.id),
        glyphs[i].box,
        emPx,
      ),
    ),
  );
  const out = [...labels];
  wide.forEach((i, k) => (out[i] = averaged(labels[i], squeezed[k])));
  return out;
}

/** The mean of two classifications' listed readings (a reading one of them does not list counts 0 there), re-ranked. */
export function averaged(a: Classification, b: Classification): Classification {
  const sum = new Map<string, number>();
  for (const { latex, confidence } of [a, ...a.alternatives, b, ...b.alternatives]) sum.set(latex, (sum.get(latex) ?? 0) + confidence / 2);
  const [best, ...rest] = [...sum].map(([latex, confidence]) => ({ latex, confidence })).sort((x, y) => y.confidence - x.confidence);
  return { ...best, alternatives: rest.slice(0, a.alternatives.length) };
}
