import type { MathSymbol, SymbolStyle } from '../types.js';
import { height, median, overlap, type Glyph } from './element.js';
import { verticalClass, type VerticalClass } from './metrics.js';

/** How far (in em, summed over top and bottom edge) a box may miss a label's expected extent before the fit halves. */
const FIT_TOLERANCE_EM = 0.15;
/** Below this fit the top label is doubted and its alternatives are weighed. */
const DOUBT_BELOW = 0.4;
/** Only labels at least this probable define the line a doubted symbol is measured against. */
const SURE = 0.8;
/**
 * An alternative the classifier gives less than this is a different shape, not a look-alike: a
 * sure `A` whose line is misread from its superscript must not become `\mu`.
 */
const PLAUSIBLE = 0.05;
/** A runner-up at least this share as likely as the top label is close: a line a script's step away may pick it. */
const CLOSE_RUNNER_UP = 0.25;

/**
 * A prime stands raised (its foot about 0.43 em above its base's baseline); a prime-shaped mark whose
 * foot reaches down to the line (within this many em of its baseline) is a comma. A scan's comma
 * after a digit or a subscript is often labelled a prime by the classifier, without a comma among
 * its runner-ups, and became a script (`[a_{1_{\prime}}b_{1}]`, `1<p\leq2_{\prime}`).
 */
const PRIME_FOOT_EM = 0.15;
const PRIME_LABELS = new Set(["'", '\\prime']);
/** How far (in the mark's heights) its neighbours may stand, and how sure of them the line may be made. */
const PRIME_REACH = 6;
const PRIME_NEIGHBOUR_SURE = 0.5;

/** Styles a classifier's label names (`\mathcal{X}` is `X` calligraphic), not its ink. */
const LABEL_ALPHABETS = new Set<SymbolStyle>(['calligraphic', 'fraktur', 'blackboard']);

interface LineReference {
  baseline: number;
  em: number;
}

/**
 * Picks each symbol's label. Image and stroke symbols come with runner-up labels; where the top
 * label's vertical class contradicts where the box sits on the line its neighbours define (a 'C'
 * the height of the 'a' beside it, a 'P' that drops below the baseline, a comma up at prime
 * height), the label whose class fits best, weighted by its probability, wins. Only sure labels
 * whose class sizes its box (letters and digits) serve as neighbours, so the line is read from
 * the evidence least likely to be wrong; a symbol without such neighbours keeps its top label.
 */
export function chooseLabels(symbols: MathSymbol[]): Glyph[] {
  return symbols.map((symbol, index) => {
    const glyph: Glyph = { latex: symbol.latex, box: symbol.box, confidence: symbol.confidence, style: symbol.style, hookEnd: symbol.hookEnd };
    if (symbol.baseline !== undefined) return glyph;
    if (PRIME_LABELS.has(symbol.latex) && standsLow(symbols, index)) return { ...glyph, latex: ',' };
    const lines = neighbourLines(symbols, index);
    const line = medianLine(lines);
    if (!symbol.alternatives?.length || !line) return glyph;
    // A script belongs to the glyph before it, whose own line may differ from its neighbours' (a
    // subscript beside it pulls their median down): it is measured against that glyph's too.
    const base = baseBefore(symbols, index);
    // A script or base of the line is measured against each neighbour's line too: a script among them
    // (the sure `i` of `c_{i}`, the `2` of `^{p-2}`) pulls the median off every line.
    const topFit = Math.max(
      fit(symbol, verticalClass(symbol.latex), line),
      ...[line, ...lines].flatMap((l) => [scriptFit(symbol, l), baseFit(symbol, l)]),
      base ? scriptFit(symbol, base) : 0,
    );
    if (topFit >= DOUBT_BELOW) return glyph;
    let best = { latex: symbol.latex, confidence: symbol.confidence, score: symbol.confidence * topFit };
    for (const alternative of symbol.alternatives) {
      if (alternative.confidence < PLAUSIBLE) continue;
      // A neighbour's line a script's step away (`c_{i}(x)`'s x, read `\\mathcal{X}` first, beside the
      // subscript i) is weaker evidence: it picks only a close runner-up (a far one, `\\mathcal{Z}` at
      // 0.05 for a z at 0.88, can fit some script level by chance).
      const close = alternative.confidence >= CLOSE_RUNNER_UP * symbol.confidence;
      const altFit = Math.max(fit(symbol, verticalClass(alternative.latex), line), ...(close ? lines.map((l) => baseFit(symbol, l, alternative.latex)) : []));
      const score = alternative.confidence * altFit;
      if (score > best.score) best = { ...alternative, score };
    }
    if (best.latex === symbol.latex) return glyph;
    // An alphabet the top label named (a calligraphic `X`) is not the runner-up's, which names its own;
    // upright and bold are the ink's (pooled over a letter's shapes, measured from its strokes) and stay.
    const style = glyph.style && LABEL_ALPHABETS.has(glyph.style) ? undefined : glyph.style;
    return { ...glyph, latex: best.latex, confidence: best.confidence, style };
  });
}

/** How well the box matches a class placed on the line: 1 exact, falling off with the edges' miss. */
function fit(symbol: MathSymbol, vertical: VerticalClass, line: LineReference): number {
  const expectedTop = line.baseline - vertical.top * line.em;
  const expectedBottom = line.baseline - vertical.bottom * line.em;
  const miss = (Math.abs(symbol.box.y0 - expectedTop) + Math.abs(symbol.box.y1 - expectedBottom)) / line.em;
  return Math.exp(-((miss / FIT_TOLERANCE_EM) ** 2) * Math.LN2);
}

/**
 * Where a script of the line sits (TeX's script size; its baseline dropped by sub1 or sub2, raised by
 * sup3 or sup1 of Computer Modern): a `0` the size of an `o` that hangs below the line is the
 * subscript of `\mu_0`, not an `o`, and a capital the height of a lower-case letter, dropped like a
 * subscript, is the `X` of `\sigma_X`. Only a close fit counts: a loose one is no evidence against
 * a look-alike that fits the line.
 */
const SCRIPT_SCALE = 0.7;
const SCRIPT_SHIFTS_EM = [0.15, 0.25, -0.36, -0.41];
const SCRIPT_SURE = 0.6;

/** How well the top label fits as a sub- or superscript of the line (its own vertical class at script size); 0 unless closely. */
function scriptFit(symbol: MathSymbol, line: LineReference): number {
  const vertical = verticalClass(symbol.latex);
  if (!vertical.sizes) return 0;
  const em = SCRIPT_SCALE * line.em;
  const best = Math.max(...SCRIPT_SHIFTS_EM.map((shift) => fit(symbol, vertical, { baseline: line.baseline + shift * line.em, em })));
  return best >= SCRIPT_SURE ? best : 0;
}

/**
 * How well the top label fits as the base whose scripts define the line: the sure neighbours that
 * measure a symbol may be its own scripts (Palatino's `c` and `x` in `c_{i}(x)`, read unsurely beside
 * a sure subscript `i`, had become `\mathcal{C}` and `\mathcal{X}`, capitals the height of the script
 * line's letters; a superscript `p` over its own subscript, `P`). The base stands a script's shift
 * from that line at 1/SCRIPT_SCALE its em; 0 unless it fits closely.
 */
function baseFit(symbol: MathSymbol, line: LineReference, latex = symbol.latex): number {
  const vertical = verticalClass(latex);
  if (!vertical.sizes) return 0;
  const em = line.em / SCRIPT_SCALE;
  const best = Math.max(...SCRIPT_SHIFTS_EM.map((shift) => fit(symbol, vertical, { baseline: line.baseline - shift * em, em })));
  return best >= SCRIPT_SURE ? best : 0;
}

/**
 * Whether a prime-shaped mark stands on the line, as a comma does: its foot within PRIME_FOOT_EM of
 * the baseline its neighbours define (a comma hangs below the line and stands a thin space from
 * them: any overlap, a wider reach, less sure neighbours), or where no neighbour tells the line (a
 * comma after `)` or `\ldots`), below the middle of the mark before it.
 */
function standsLow(symbols: MathSymbol[], index: number): boolean {
  const self = symbols[index].box;
  const line = lineAround(symbols, index, { reachHeights: PRIME_REACH, shared: 0, sure: PRIME_NEIGHBOUR_SURE });
  if (line) return self.y1 > line.baseline - PRIME_FOOT_EM * line.em;
  const before = symbols
    .filter((other, otherIndex) => otherIndex !== index && !PRIME_LABELS.has(other.latex))
    .filter((other) => other.box.x1 <= self.x0 + 1 && overlap(other.box.y0, other.box.y1, self.y0, self.y1) > 0)
    .sort((a, b) => b.box.x1 - a.box.x1)[0];
  return before !== undefined && self.y1 > (before.box.y0 + before.box.y1) / 2;
}

/**
 * The line of the sure, size-telling glyph right before the symbol (within a gap of half its
 * height, overlapping its band), or null: the base the symbol would be a script of.
 */
function baseBefore(symbols: MathSymbol[], index: number): LineReference | null {
  const self = symbols[index].box;
  const before = symbols
    .filter((other, otherIndex) => otherIndex !== index && other.confidence >= SURE && verticalClass(other.latex).sizes)
    .filter((other) => other.box.x1 <= self.x0 + 1 && self.x0 - other.box.x1 < 0.5 * height(self))
    .filter((other) => overlap(other.box.y0, other.box.y1, self.y0, self.y1) > 0.5 * Math.min(height(other.box), height(self)))
    .sort((a, b) => b.box.x1 - a.box.x1)[0];
  if (!before) return null;
  const vertical = verticalClass(before.latex);
  const em = height(before.box) / (vertical.top - vertical.bottom);
  return { baseline: before.box.y1 + vertical.bottom * em, em };
}

/**
 * Baseline and em from the nearest size-telling neighbours (within `reachHeights` of the symbol's
 * height, read at least `sure`) that share the symbol's vertical band (more than `shared` of the
 * smaller height).
 */
function lineAround(symbols: MathSymbol[], index: number, opts: { reachHeights?: number; shared?: number; sure?: number } = {}): LineReference | null {
  return medianLine(neighbourLines(symbols, index, opts));
}

/** The median baseline and em of lines, or null for none. */
function medianLine(lines: LineReference[]): LineReference | null {
  const em = median(lines.map((l) => l.em));
  const baseline = median(lines.map((l) => l.baseline));
  return em === null || baseline === null ? null : { baseline, em };
}

/** The line each of the nearest size-telling neighbours stands on (lineAround's neighbours). */
function neighbourLines(symbols: MathSymbol[], index: number, { reachHeights = 1.5, shared = 0.5, sure = SURE } = {}): LineReference[] {
  const self = symbols[index].box;
  const reach = reachHeights * height(self);
  return symbols
    .filter((other, otherIndex) => otherIndex !== index && other.confidence >= sure && verticalClass(other.latex).sizes)
    .filter((other) => overlap(other.box.y0, other.box.y1, self.y0, self.y1) > shared * Math.min(height(other.box), height(self)))
    .map((other) => ({ other, gap: Math.max(other.box.x0 - self.x1, self.x0 - other.box.x1) }))
    .filter(({ gap }) => gap < reach)
    .sort((a, b) => a.gap - b.gap)
    .slice(0, 4)
    .map(({ other }) => {
      const vertical = verticalClass(other.latex);
      const em = height(other.box) / (vertical.top - vertical.bottom);
      return { baseline: other.box.y1 + vertical.bottom * em, em };
    });
}
