import { RULE, type Box, type GrayImage, type MathSymbol } from '../types.js';
import { binarise } from './binarise.js';
import { SymbolClassifier, type Classification } from './classifier.js';
import { connectedComponents } from './components.js';
import { mergeComponents, type SymbolGroup } from './merge.js';
import { cropFeatures, normaliseCrop } from './normalise.js';
import { DOT_TOKENS } from './vocabulary.js';

export interface SymbolsFromImageOptions {
  /** @default the shipped classifier, loaded once on first use */
  classifier?: SymbolClassifier;
}

/**
 * Confidence a first-pass label needs before its height is trusted to measure the em. Small marks
 * (dots, commas, accents) are left out of that estimate: a pixel changes their height by half.
 */
const EM_VOTE_CONFIDENCE = 0.8;
const EM_VOTE_MIN_HEIGHT_EM = 0.3;

let shared: Promise<SymbolClassifier> | undefined;
function defaultClassifier(): Promise<SymbolClassifier> {
  shared ??= SymbolClassifier.load().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

/**
 * The image front end of the maths recogniser: ink → connected components → multi-part symbols
 * joined → straight bars as RULE, everything else classified. Symbols come out left to right.
 *
 * Classification runs twice. Shape alone cannot tell `o` from `O` or `\Sigma` from `\sum`, and
 * an image does not say its font size; so the first pass classifies by shape, the heights of the
 * confident, sizeable results (against each class's typical height in em) give the em, and the
 * second pass classifies again knowing every symbol's height in em.
 */
export async function symbolsFromImage(image: GrayImage, opts: SymbolsFromImageOptions = {}): Promise<MathSymbol[]> {
  const map = connectedComponents(binarise(image));
  const groups = mergeComponents(map);
  const glyphs = groups.filter((g) => !g.rule);
  const classifier = opts.classifier ?? (await defaultClassifier());
  const crops = glyphs.map((g) => normaliseCrop(map, g.parts.map((c) => c.id), g.box));
  let labels = await classifier.classify(crops);
  const emPx = estimateEm(glyphs, labels, classifier);
  if (emPx !== undefined) {
    labels = await classifier.classify(crops.map((crop, i) => ({ pixels: crop.pixels, features: cropFeatures(glyphs[i].box, emPx) })));
  }
  const byGroup = new Map<SymbolGroup, Classification>(glyphs.map((g, i) => [g, labels[i]]));
  const symbols = groups.map((g): MathSymbol => {
    const label = byGroup.get(g);
    return label ? { latex: label.latex, box: g.box, confidence: label.confidence, alternatives: label.alternatives } : { latex: RULE, box: g.box, confidence: 1 };
  });
  return symbols.map((s) => (s.latex === DOT_TOKENS.period ? placeDot(s, symbols) : s));
}

/** Median of height / typical height over confidently recognised symbols, or undefined if none qualify. */
function estimateEm(glyphs: SymbolGroup[], labels: Classification[], classifier: SymbolClassifier): number | undefined {
  const { classes, typicalHeightEm } = classifier.labels;
  const votes = labels.flatMap((label, i) => {
    const typical = typicalHeightEm[classes.indexOf(label.latex)];
    if (label.confidence < EM_VOTE_CONFIDENCE || !(typical >= EM_VOTE_MIN_HEIGHT_EM)) return [];
    return [(glyphs[i].box.y1 - glyphs[i].box.y0) / typical];
  });
  if (!votes.length) return undefined;
  votes.sort((a, b) => a - b);
  return votes[Math.floor(votes.length / 2)];
}

/**
 * A dot is a full stop, `\cdot` or a `\dot` accent by where it sits: over a symbol it is an
 * accent; otherwise its height against the nearest neighbour decides, softly: a dot centred low
 * in the neighbour's box is a full stop, one near mid-height a `\cdot`. The classifier's
 * probability for the dot shape is shared between the two roles, the other kept as alternative.
 */
function placeDot(dot: MathSymbol, symbols: MathSymbol[]): MathSymbol {
  const others = symbols.filter((s) => s !== dot && s.latex !== DOT_TOKENS.period && s.latex !== RULE);
  const size = dot.box.y1 - dot.box.y0;
  const overlap = (a: Box, b: Box): number => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const under = others.some((s) => overlap(s.box, dot.box) >= 0.5 * (dot.box.x1 - dot.box.x0) && s.box.y0 >= dot.box.y1 && s.box.y0 - dot.box.y1 <= 3 * size);
  if (under) return { ...dot, latex: DOT_TOKENS.accent };
  const distance = (s: MathSymbol): number => Math.max(s.box.x0 - dot.box.x1, dot.box.x0 - s.box.x1, 0);
  const nearest = [...others].sort((a, b) => distance(a) - distance(b))[0];
  if (!nearest) return dot;
  // 0 at the neighbour's top, 1 at its bottom; a full stop sits near 0.9, a \cdot near 0.5.
  const relative = ((dot.box.y0 + dot.box.y1) / 2 - nearest.box.y0) / (nearest.box.y1 - nearest.box.y0);
  const period = 1 / (1 + Math.exp(-(relative - 0.72) * 15));
  const [role, other] = period >= 0.5 ? [DOT_TOKENS.period, DOT_TOKENS.centred] : [DOT_TOKENS.centred, DOT_TOKENS.period];
  const share = Math.max(period, 1 - period);
  return {
    ...dot,
    latex: role,
    confidence: dot.confidence * share,
    alternatives: [{ latex: other, confidence: dot.confidence * (1 - share) }, ...(dot.alternatives ?? [])].slice(0, 3),
  };
}
