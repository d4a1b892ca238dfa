import { DOT_TOKENS } from '../image/vocabulary.js';
import type { Classification } from '../image/classifier.js';
import { RADICAL, RULE, type Box, type MathSymbol, type Stroke } from '../types.js';
import { StrokeClassifier, type StrokeSymbolReader } from './classifier.js';
import { radicalHookEnd, strokeBox, strokesBox, typicalSymbolHeight } from './geometry.js';
import { equalsFromPair } from './equals.js';
import { groupStrokes, type StrokeGroup } from './grouping.js';
import { preferCaseBySize } from './letter-case.js';
import { preferBaselineTwins, preferOperators } from './operators.js';
import { preferPlusByPlace } from './plus-by-place.js';
import { regroup } from './regroup.js';
import { scriptPlaces } from './scripts.js';
import { onOneLine } from './relabel.js';
import { CANVAS_EM_PX, TYPICAL_SYMBOL_HEIGHT_EM } from './raster.js';
import { symbolFeatures, trajectory } from './trajectory.js';

export interface SymbolsFromStrokesOptions {
  /** @default the shipped strokes classifier, loaded once on first use */
  classifier?: StrokeSymbolReader;
  /** Let the classifier's scores split and join geometry's groups (regroup.ts). @default true */
  regroup?: boolean;
}

/**
 * Confidence a first-pass label needs before its height is trusted to measure the em; small marks
 * (dots, commas) are left out because a wobble of the pen changes their height by half.
 */
const EM_VOTE_CONFIDENCE = 0.7;
const EM_VOTE_MIN_HEIGHT_EM = 0.3;
/** A script's size against its base's (TeX's script style: 7 pt on 10). */
const SCRIPT_SIZE = 0.7;

let shared: Promise<StrokeClassifier> | undefined;
/** The shipped strokes classifier, loaded once per process; a failed load is retried on the next call. */
export function defaultStrokeClassifier(): Promise<StrokeClassifier> {
  shared ??= StrokeClassifier.load().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

/** Drops strokes without points and points that are not finite numbers. */
export function cleanStrokes(strokes: readonly Stroke[]): Stroke[] {
  return strokes
    .map((s) => {
      const keep = s.x.map((x, i) => Number.isFinite(x) && Number.isFinite(s.y[i]));
      return { x: s.x.filter((_, i) => keep[i]), y: s.y.filter((_, i) => keep[i]) };
    })
    .filter((s) => s.x.length > 0);
}

/**
 * The pen-strokes front end of the maths recogniser, for one expression: strokes grouped into
 * symbols by geometry (grouping.ts), bars as RULE and radical signs as RADICAL, every other group
 * classified from its strokes in drawing order (trajectory.ts). Box coordinates are the strokes'
 * own. Symbols come out left to right.
 *
 * Classification runs twice, as for images: by shape first, then — once the confident results'
 * heights against their classes' typical heights give the em — again knowing each symbol's size,
 * for the symbols that share their line with another.
 */
export async function symbolsFromStrokes(input: readonly Stroke[], opts: SymbolsFromStrokesOptions = {}): Promise<MathSymbol[]> {
  const strokes = cleanStrokes(input);
  if (!strokes.length) return [];
  const symbolHeight = typicalSymbolHeight(strokes);
  const scale = (CANVAS_EM_PX * TYPICAL_SYMBOL_HEIGHT_EM) / symbolHeight;
  const classifier = opts.classifier ?? (await defaultStrokeClassifier());
  const guess = symbolHeight / TYPICAL_SYMBOL_HEIGHT_EM;
  const byShape = (sets: readonly Stroke[][]) =>
    classifier.classify(sets.map((set) => ({ points: trajectory(set), features: symbolFeatures(strokesBox(set), guess, false) })));
  const geometric = groupStrokes(strokes, symbolHeight, scale).groups;
  const groups = opts.regroup === false ? geometric : await regroup(geometric, strokes, byShape);
  const glyphs = groups.filter((g) => g.kind === 'glyph');
  const inked = glyphs.map((g) => g.strokes.map((i) => strokes[i]));
  const boxes = inked.map(strokesBox);
  const labels = await byShape(inked);
  const em = estimateEm(boxes, labels, classifier);
  const assemble = () => {
    const byGroup = new Map<StrokeGroup, Classification>(glyphs.map((g, i) => [g, equalsFromPair(labels[i], inked[i].map(strokeBox), symbolHeight)]));
    return groups.map((g): MathSymbol => {
      const label = byGroup.get(g);
      if (label) return { latex: label.latex, box: g.box, confidence: label.confidence, alternatives: label.alternatives };
      if (g.kind === 'rule') return { latex: RULE, box: g.box, confidence: 1 };
      const hookEnd = radicalHookEnd(
        g.strokes.map((i) => strokes[i]),
        symbolHeight,
      );
      return { latex: RADICAL, box: g.box, confidence: 1, ...(hookEnd === null ? {} : { hookEnd }) };
    });
  };
  if (em !== undefined) {
    // Which glyphs are scripts is the layout parser's call on the first reading, with the fraction
    // bars and radicals known (a numerator beside a letter is no superscript of it): a script is read
    // again at script size against its base's em, not the line's, where a script `2` has a small `z`'s height.
    const first = assemble();
    const places = scriptPlaces(first);
    const glyphAt = new Map(groups.map((g, i) => [g, i]));
    const place = (i: number) => places.get(glyphAt.get(glyphs[i])!);
    const lineEm = estimateEm(boxes, labels, classifier, (i) => place(i) === undefined) ?? em;
    const emOf = (i: number): number => {
      const at = place(i);
      if (!at) return lineEm;
      const baseGlyph = at.base === undefined ? -1 : glyphs.indexOf(groups[at.base]);
      const baseEm = baseGlyph >= 0 && place(baseGlyph) === undefined ? (ownEm(boxes[baseGlyph], labels[baseGlyph], classifier) ?? lineEm) : lineEm;
      return baseEm * SCRIPT_SIZE ** at.depth;
    };
    // A glyph that no other glyph shares a line with (alone, alone under a radical, a lone numerator)
    // has nothing at its level to measure its size by: its em would come from other lines or from its
    // own first reading, and the classifier, sure of a size it was handed, reads a lone `x` as `X`.
    // It keeps its size-hidden reading; letter-case.ts weighs its case by how often maths writes each.
    const measured = glyphs.flatMap((g, i) => (place(i) !== undefined || glyphs.some((o) => o !== g && onOneLine(o, g)) ? [i] : []));
    const sized = await classifier.classify(measured.map((i) => ({ points: trajectory(inked[i]), features: symbolFeatures(boxes[i], emOf(i), true) })));
    measured.forEach((i, k) => (labels[i] = sized[k]));
  }
  const symbols = assemble();
  return preferCaseBySize(
    preferBaselineTwins(preferPlusByPlace(preferOperators(symbols.map((s) => (s.latex === DOT_TOKENS.period ? placeDot(s, symbols) : s))))),
  );
}

/**
 * The classifier has one class for the dot shape; a full stop sits on the baseline of its nearest
 * neighbour, a \cdot near its middle. (A dot over a symbol is joined to it by dots.ts or read as
 * an accent by the parser.)
 */
function placeDot(dot: MathSymbol, symbols: MathSymbol[]): MathSymbol {
  const distance = (s: MathSymbol) => Math.max(s.box.x0 - dot.box.x1, dot.box.x0 - s.box.x1, 0);
  const nearest = symbols.filter((s) => s !== dot && s.latex !== DOT_TOKENS.period && s.latex !== RULE).sort((a, b) => distance(a) - distance(b))[0];
  if (!nearest) return dot;
  // 0 at the neighbour's top, 1 at its bottom: a full stop sits near 0.9, a \cdot near 0.5.
  const relative = ((dot.box.y0 + dot.box.y1) / 2 - nearest.box.y0) / (nearest.box.y1 - nearest.box.y0 || 1);
  return relative < 0.72 ? { ...dot, latex: DOT_TOKENS.centred } : dot;
}

/** A symbol's height over its class's typical height (stroke units per em), when its label is sure and sizeable. */
function ownEm(box: Box, label: Classification, classifier: StrokeSymbolReader): number | undefined {
  const { classes, typicalHeightEm } = classifier.labels;
  const typical = typicalHeightEm[classes.indexOf(label.latex)];
  if (label.confidence < EM_VOTE_CONFIDENCE || !(typical >= EM_VOTE_MIN_HEIGHT_EM)) return undefined;
  return (box.y1 - box.y0) / typical;
}

/** Median of ownEm over the symbols `counts` admits (all by default). */
function estimateEm(boxes: Box[], labels: Classification[], classifier: StrokeSymbolReader, counts: (i: number) => boolean = () => true): number | undefined {
  const votes = labels.flatMap((label, i) => {
    const own = counts(i) ? ownEm(boxes[i], label, classifier) : undefined;
    return own === undefined ? [] : [own];
  });
  if (!votes.length) return undefined;
  votes.sort((a, b) => a - b);
  return votes[Math.floor(votes.length / 2)];
}
