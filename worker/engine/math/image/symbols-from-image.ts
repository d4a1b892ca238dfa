import { dotStack, joinDotStacks } from '../dot-stacks.js';
import { FRAME, RULE, type Box, type GrayImage, type MathSymbol, type SymbolStyle } from '../types.js';
import { freeAccentDots, joinSemicolons } from './accent-dots.js';
import { binarise, scanGrey } from './binarise.js';
import { joinBroken } from './broken-glyphs.js';
import { calibrateSymbol } from './calibration.js';
import { SymbolClassifier, type Classification } from './classifier.js';
import { connectedComponents, type ComponentMap } from './components.js';
import { splitAtDarkerCores } from './darker-cores.js';
import { separateFusedBars } from './fused-bars.js';
import { splitFused } from './fused-glyphs.js';
import { horizontalBrace, joinBraceHalves, wideAccent } from './wide-marks.js';
import { joinByScore } from './join-by-score.js';
import { measuredArrow } from './long-arrows.js';
import { mergeComponents, type SymbolGroup } from './merge.js';
import { cropFeatures, normaliseCrop, type NormalisedCrop } from './normalise.js';
import { withPriors } from './priors.js';
import { loadScanClassifier } from './scan-classifier.js';
import { enlargedCrop, enlargedMap, enlargedViews, surerReads } from './small-glyphs.js';
import { joinRelationBars } from './relation-bars.js';
import { splitUnderBars } from './under-bars.js';
import { splitTouching } from './split.js';
import { loadStemTable, markBold, type StemTable } from './stroke-weight.js';
import { splitAtTittles } from './tittle-split.js';
import { DOT_TOKENS, styledLetter } from './vocabulary.js';
import { asAccent, wavyRules } from './wavy-accents.js';
import { withSqueezedViews } from './wide-views.js';

export interface SymbolsFromImageOptions {
  /** @default the shipped classifier, loaded once on first use */
  classifier?: SymbolClassifier;
  /**
   * The classifier of a scan (an image binarisation reads as one, scan-noise.ts; scan-classifier.ts).
   * @default the shipped scan classifier where `classifier` is not given, else `classifier`
   */
  scanClassifier?: SymbolClassifier;
  /** Report the classifier's own probabilities instead of calibrated confidences (calibration.ts); for fitting. @default false */
  rawConfidence?: boolean;
  /** The calibration exponent of `classifier`'s probabilities. @default CONFIDENCE_EXPONENT (the typeset classifier's) */
  confidenceExponent?: number;
  /** Look-alike weights (priors.ts withPriors). @default print's (RARE_LOOKALIKES) */
  priors?: Readonly<Record<string, number>>;
  /** Join nearby pieces whose joined crop the classifier reads likelier than the parts (join-by-score.ts); for handwriting. @default false */
  joinByScore?: boolean;
  /** Read wide crops also squeezed into a square and average the two views (wide-views.ts); for handwriting. @default false */
  squeezeWide?: boolean;
  /**
   * Mend what a typeset raster does to type: cut blobs it fused into the letters of a known word or
   * surer pieces (fused-glyphs.ts), and read a flat mark over a glyph whose grey ink waves as a tilde
   * or hat (wavy-accents.ts), and on a scan take apart glyphs its blur fused (darker-cores.ts). Off
   * for handwriting, whose letters and bars a hand makes wave and join. @default true
   */
  typesetRepairs?: boolean;
  /**
   * The regular stem weights bold letters are read against (stroke-weight.ts), or false to read no
   * bold. Never on a scan (its blur thickens every stroke) or handwriting.
   * @default the shipped table where `typesetRepairs` is on
   */
  stems?: StemTable | false;
}

/**
 * Confidence a first-pass label needs before its height is trusted to measure the em. Small marks
 * (dots, commas, accents) are left out of that estimate: a pixel changes their height by half.
 */
const EM_VOTE_CONFIDENCE = 0.8;
const EM_VOTE_MIN_HEIGHT_EM = 0.3;
/** A blob the first pass reads less surely than this is tried as a fraction bar fused with its parts (a sure ⇌ or → is left whole). */
const FUSED_BAR_DOUBT = 0.7;

let shared: Promise<SymbolClassifier> | undefined;
function defaultClassifier(): Promise<SymbolClassifier> {
  shared ??= SymbolClassifier.load().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

let sharedScan: Promise<SymbolClassifier> | undefined;
function defaultScanClassifier(): Promise<SymbolClassifier> {
  sharedScan ??= loadScanClassifier().catch((err: unknown) => {
    sharedScan = undefined;
    throw err;
  });
  return sharedScan;
}

/** The classifier that reads `image`: a scan's (scan-classifier.ts) when binarisation reads it as a scan. */
async function classifierOf(scanned: boolean, opts: SymbolsFromImageOptions): Promise<SymbolClassifier> {
  if (scanned && opts.scanClassifier) return opts.scanClassifier;
  if (opts.classifier) return opts.classifier;
  return scanned ? defaultScanClassifier() : defaultClassifier();
}

/**
 * The image front end of the maths recogniser: ink → connected components (on a scan, blobs of
 * glyphs its blur fused taken apart at their darker cores, darker-cores.ts) → multi-part symbols
 * joined → straight bars as RULE, everything else classified, unsure blobs tried as two touching
 * glyphs, blobs beside letters tried as the fused letters of a known word (fused-glyphs.ts). Symbols
 * come out left to right.
 *
 * Classification runs twice. Shape alone cannot tell `o` from `O` or `\Sigma` from `\sum`, and
 * an image does not say its font size; so the first pass classifies by shape, the heights of the
 * confident, sizeable results (against each class's typical height in em) give the em, and the
 * second pass classifies again knowing every symbol's height in em. A glyph drawn smaller than the
 * classifier was trained on is read once more from the image enlarged (small-glyphs.ts), and so is
 * a RULE over a glyph whose grey ink waves (a tilde or a hat drawn flat, wavy-accents.ts).
 */
export async function symbolsFromImage(image: GrayImage, opts: SymbolsFromImageOptions = {}): Promise<MathSymbol[]> {
  const ink = connectedComponents(binarise(image));
  const scan = opts.typesetRepairs === false ? null : scanGrey(image);
  const classifier = await classifierOf(scan !== null, opts);
  const map = scan ? await splitAtDarkerCores(ink, scan.grey, scan.noise.paper, classifier) : ink;
  let { groups, glyphs, crops, labels } = await firstReads(map, classifier);
  // A blob read unsurely may be a fraction bar with the glyphs the raster fused to it (fused-bars.ts).
  const doubted = glyphs.filter((_, i) => labels[i].confidence < FUSED_BAR_DOUBT).flatMap((g) => g.parts);
  if (opts.typesetRepairs !== false && separateFusedBars(map, doubted)) ({ groups, glyphs, crops, labels } = await firstReads(map, classifier));
  const emPx = estimateEm(glyphs, labels, classifier);
  if (emPx !== undefined) {
    let enlargedInk: ComponentMap | undefined;
    const enlargedOnce = () => (enlargedInk ??= enlargedMap(image));
    const views = enlargedViews(enlargedOnce, glyphs, labels, classifier.labels, emPx);
    const marks = (opts.typesetRepairs === false ? [] : wavyRules(image, groups)).flatMap((group) => {
      const crop = enlargedCrop(enlargedOnce(), group.box, emPx);
      return crop ? [{ group, crop }] : [];
    });
    const reads = await classifier.classify([
      ...crops.map((crop, i) => ({ pixels: crop.pixels, features: cropFeatures(glyphs[i].box, emPx) })),
      ...views.map((view) => view.crop),
      ...marks.map((mark) => mark.crop),
    ]);
    const markReads = reads.slice(glyphs.length + views.length);
    labels = surerReads(reads.slice(0, glyphs.length), views, reads.slice(glyphs.length, glyphs.length + views.length));
    // A wavy mark the enlarged read calls an accent is that accent's glyph, not a RULE.
    marks.forEach(({ group }, k) => {
      const read = markReads[k];
      const accent = asAccent(group, read);
      if (!accent) return;
      groups = groups.map((g) => (g === group ? accent : g));
      glyphs.push(accent);
      labels.push(read);
    });
  }
  if (opts.squeezeWide) labels = await withSqueezedViews(map, glyphs, labels, classifier, emPx);
  labels = labels.map((label) => withPriors(label, opts.priors));
  if (emPx !== undefined) labels = labels.map((label, i) => (isSpeck(glyphs[i], emPx) ? asDot(label) : (stackedDots(glyphs[i], emPx) ?? label)));
  const byGroup = new Map<SymbolGroup, Classification>(glyphs.map((g, i) => [g, labels[i]]));
  const grouped = groups.map((group) => ({ group, label: byGroup.get(group) }));
  const joined = opts.joinByScore
    ? await joinByScore(map, grouped, classifier, emPx)
    : opts.typesetRepairs === false
      ? grouped
      : await joinBroken(map, grouped, classifier, emPx);
  const touching = await splitAtTittles(map, await splitTouching(map, joined, classifier, emPx), classifier, emPx);
  const split = opts.typesetRepairs === false ? touching : await splitFused(map, touching, classifier, emPx);
  const classified = await splitUnderBars(await freeAccentDots(map, split, classifier, emPx), map, classifier, emPx);
  const marked = joinBraceHalves(classified, map, (group) => ({ group, label: undefined }));
  const glyphBoxes = marked.filter(({ label }) => label).map(({ group }) => group.box);
  const read = marked.map(({ group, label }) => {
    const mark = horizontalBrace(group, map) ?? wideAccent(group, map, glyphBoxes);
    if (mark) return { group, symbol: { latex: mark, box: group.box, confidence: 1 } };
    if (!label) return { group, symbol: { latex: group.frame ? FRAME : RULE, box: group.box, confidence: 1 } };
    const symbol = symbolOf(label, group.box);
    return { group, symbol: emPx === undefined || opts.typesetRepairs === false ? symbol : measuredArrow(symbol, group, map, emPx) };
  });
  const stems = scan || opts.typesetRepairs === false || opts.stems === false ? null : (opts.stems ?? (await loadStemTable()));
  const { classes, typicalHeightEm } = classifier.labels;
  const typicalHeight = (key: string) => typicalHeightEm[classes.indexOf(key)];
  const symbols = (stems ? markBold(image, map, read, stems, typicalHeight) : read.map((r) => r.symbol)).sort(
    (a, b) => a.box.x0 - b.box.x0 || a.box.y0 - b.box.y0,
  );
  const dotted = joinRelationBars(joinSemicolons(symbols.map((s) => (s.latex === DOT_TOKENS.period ? placeDot(s, symbols) : s))));
  const placed = emPx === undefined ? dotted : joinDotStacks(dotted, emPx);
  return opts.rawConfidence ? placed : placed.map((s) => calibrateSymbol(s, opts.confidenceExponent));
}

/** The merged groups of `map`, those that are glyphs, and the classifier's read of each glyph's crop by shape alone. */
async function firstReads(
  map: ComponentMap,
  classifier: SymbolClassifier,
): Promise<{ groups: SymbolGroup[]; glyphs: SymbolGroup[]; crops: NormalisedCrop[]; labels: Classification[] }> {
  const groups = mergeComponents(map);
  const glyphs = groups.filter((g) => !g.rule && !g.frame);
  const crops = glyphs.map((g) =>
    normaliseCrop(
      map,
      g.parts.map((c) => c.id),
      g.box,
    ),
  );
  return { groups, glyphs, crops, labels: await classifier.classify(crops) };
}

/** Largest side of a dot (full stop, `\cdot`, `\dot`) in em: a 150 dpi `\cdot` is a 2×2 blob the CNN cannot read. */
const DOT_MAX_EM = 0.2;

/** A single round filled blob no bigger than a dot: nothing else in the vocabulary is that small (a comma is taller). */
function isSpeck(group: SymbolGroup, emPx: number): boolean {
  const width = group.box.x1 - group.box.x0;
  const height = group.box.y1 - group.box.y0;
  const area = group.parts.reduce((sum, part) => sum + part.area, 0);
  return (
    group.parts.length === 1 &&
    Math.max(width, height) <= DOT_MAX_EM * emPx &&
    Math.max(width, height) <= Math.max(Math.min(width, height) + 1, 1.4 * Math.min(width, height)) &&
    area >= 0.55 * width * height
  );
}

/**
 * Three dots the merge step joined one under the other (as it joins a colon's two) are `\vdots`
 * (or, stepping right, `\ddots`): no class of the classifier is drawn that way.
 */
function stackedDots(group: SymbolGroup, emPx: number): Classification | undefined {
  if (group.parts.length !== 3 || !group.parts.every((part) => isSpeck({ parts: [part], box: part.box, rule: false }, emPx))) return undefined;
  const latex = dotStack(
    group.parts.map((part) => part.box),
    emPx,
    Math.max(1, 0.05 * emPx),
  );
  return latex ? { latex, confidence: 0.99, alternatives: [] } : undefined;
}

/** The dot class on top, keeping the classifier's other readings as alternatives. */
function asDot(label: Classification): Classification {
  if (label.latex === DOT_TOKENS.period) return label;
  const dot = label.alternatives.find((alternative) => alternative.latex === DOT_TOKENS.period)?.confidence ?? 0;
  const others = [label, ...label.alternatives]
    .filter((candidate) => candidate.latex !== DOT_TOKENS.period)
    .map(({ latex, confidence }) => ({ latex, confidence }));
  return { latex: DOT_TOKENS.period, confidence: Math.max(dot, label.confidence), alternatives: others.slice(0, label.alternatives.length) };
}

/**
 * The symbol a classification names. An upright letter class is its letter with style 'upright';
 * the letter's probability is that of both its shapes together (italic or upright is a detail of
 * the letter), and the runners-up are pooled the same way. A letter read as italic keeps no style,
 * so the parser still finds function names in it, as in any picture whose style is unknown. A
 * letter of another alphabet (`\mathbf{x}`, `\mathcal{L}`, `\mathbb{E}`) is its letter with that
 * alphabet's style too, but competes on its own probability: pooled with the plain letter's, four
 * alphabets' shapes of O would outweigh any `\circ`, and of E any `\varepsilon`.
 */
function symbolOf(label: Classification, box: Box): MathSymbol {
  const pooled = new Map<string, { confidence: number; upright: number; style?: SymbolStyle }>();
  for (const { latex, confidence } of [label, ...label.alternatives]) {
    const styled = styledLetter(latex);
    const upright = styled?.style === 'upright';
    const key = upright ? styled.letter : latex;
    const entry = pooled.get(key) ?? { confidence: 0, upright: 0, ...(styled && !upright ? { style: styled.style } : {}) };
    entry.confidence += confidence;
    if (upright) entry.upright += confidence;
    pooled.set(key, entry);
  }
  const [[token, best], ...rest] = [...pooled].sort((a, b) => b[1].confidence - a[1].confidence);
  const alternatives = rest.map(([latex, entry]) => ({ latex, confidence: entry.confidence }));
  const style = best.style ?? (best.upright > best.confidence / 2 ? 'upright' : undefined);
  const latex = best.style ? styledLetter(token)!.letter : token;
  return { latex, box, confidence: best.confidence, alternatives, ...(style ? { style } : {}) };
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
  // Only neighbours on the dot's line measure it: not the arrow of a \vec beside it, nor a script.
  const middle = (dot.box.y0 + dot.box.y1) / 2;
  const onLine = others.filter((s) => s.box.y0 <= middle + size && s.box.y1 >= middle - size);
  const nearest = [...onLine].sort((a, b) => distance(a) - distance(b))[0];
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
