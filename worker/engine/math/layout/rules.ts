import { RULE } from '../types.js';
import { centreX, centreY, glyphOf, overlap, referenceEm, structureElement, unionBox, width, type Element, type Glyph, type ParseRow } from './element.js';

/** The first thing above or below a fraction bar may sit this far from it (display fractions leave ~0.4 em). */
const FIRST_GAP_EM = 0.9;
/** Further lines of a numerator or denominator follow each other this closely. */
const NEXT_GAP_EM = 0.45;
/** An overline or underline hugs what it marks. */
const MARK_GAP_EM = 0.45;
/** …and is at most this much (fraction of its width) longer than what it marks. */
const MARK_OVERHANG = 0.3;

const ruleGlyph = (element: Element): Glyph | null => glyphOf(element, RULE);

/**
 * Decides what each horizontal rule is from what lies within its width: something above and below
 * makes it a fraction bar, something just below an overline (`\bar` when shorter than the one
 * symbol it marks), something
 * just above an underline, nothing a minus sign. Two stacked rules of one width with nothing
 * between are '='. Wider rules are decided first, so the bar of an outer fraction takes the inner
 * fraction whole and the minus signs of its numerator are decided inside it.
 */
export function groupRules(elements: Element[], parseRow: ParseRow): Element[] {
  let pool = mergeEqualsSigns(elements);
  const em = referenceEm(pool.filter((element) => !ruleGlyph(element)));
  const rules = pool.filter(ruleGlyph).sort((a, b) => width(b.box) - width(a.box));
  for (const rule of rules) {
    if (!pool.includes(rule)) continue;
    const above = stack(pool, rule, 'above', em);
    const below = stack(pool, rule, 'below', em);
    const { decided, used } = decide(rule, above, below, em, parseRow);
    // A plain minus takes nothing with it: what lay near it stays in the row.
    const claimed = new Set([rule, ...used]);
    pool = pool.filter((element) => !claimed.has(element));
    pool.push(decided);
  }
  return pool;
}

/** What the rule is, and the elements it takes with it. */
function decide(rule: Element, above: Element[], below: Element[], em: number, parseRow: ParseRow): { decided: Element; used: Element[] } {
  const bar = ruleGlyph(rule) as Glyph;
  const box = unionBox([rule, ...above, ...below].map((element) => element.box));
  if (isDot(above) && isDot(below)) {
    const glyphs = [bar, ...[...above, ...below].map((element) => glyphOf(element) as Glyph)];
    return { decided: structureElement({ kind: 'merged', latex: '\\div', glyphs }, box, null, centreY(rule.box)), used: [...above, ...below] };
  }
  // A rule under an operator name is its underline, with the limits below (amsmath's \varliminf):
  // no fraction has a bare `lim` for its numerator.
  if (above.length > 0 && below.length > 0 && !isOperatorName(above)) {
    const [numerator, denominator] = [parseRow(above), parseRow(below)];
    const node = { kind: 'fraction' as const, bar, numerator: numerator.nodes, denominator: denominator.nodes };
    const heldEm = Math.max(numerator.em ?? 0, denominator.em ?? 0);
    return { decided: structureElement(node, box, null, centreY(rule.box), heldEm), used: [...above, ...below] };
  }
  const side = below.length > 0 && !isOperatorName(above) ? below : above;
  const marked = markedLine(side, rule, em);
  const gap = side === below ? Math.min(...below.map((e) => e.box.y0)) - rule.box.y1 : rule.box.y0 - Math.max(...above.map((e) => e.box.y1));
  // An overline or underline spans what it marks; a superscript minus over a subscript (`O_4^-`)
  // starts with it and overhangs it on the right. The reach beyond each side counts alone: a rule
  // starting a pixel inside its subscript is not the shorter for it.
  const span = marked.length > 0 ? unionBox(marked.map((e) => e.box)) : rule.box;
  const overhang = Math.max(0, span.x0 - rule.box.x0) + Math.max(0, rule.box.x1 - span.x1);
  if (marked.length > 0 && gap < MARK_GAP_EM * em && overhang < MARK_OVERHANG * width(rule.box)) {
    const row = parseRow(marked);
    // \overline spans its body's full width; the \bar accent is a shorter mark over one symbol.
    const accent = row.nodes.length === 1 && row.nodes[0].kind === 'glyph' && width(rule.box) < 0.9 * width(marked[0].box);
    const command = side === below ? (accent ? '\\bar' : '\\overline') : '\\underline';
    const marks = unionBox([rule, ...marked].map((element) => element.box));
    return { decided: structureElement({ kind: 'accent', command, marks: [bar], body: row.nodes }, marks, row, centreY(marks)), used: marked };
  }
  return { decided: structureElement({ kind: 'glyph', glyph: bar, latex: '-' }, rule.box, null, centreY(rule.box)), used: [] };
}

/**
 * What sits directly above (or below) a rule within its width, taken line by line outwards while
 * the gaps stay small: a numerator is one block, not everything that happens to be higher up.
 */
function stack(pool: Element[], rule: Element, side: 'above' | 'below', em: number): Element[] {
  const slack = Math.min(0.05 * width(rule.box), 0.1 * em);
  const ruleY = centreY(rule.box);
  const candidates = pool
    .filter((element) => element !== rule)
    .filter((element) => centreX(element.box) > rule.box.x0 - slack && centreX(element.box) < rule.box.x1 + slack)
    .filter((element) => (side === 'above' ? element.box.y1 <= ruleY : element.box.y0 >= ruleY))
    .sort((a, b) => (side === 'above' ? b.box.y1 - a.box.y1 : a.box.y0 - b.box.y0));
  const taken: Element[] = [];
  let edge = side === 'above' ? rule.box.y0 : rule.box.y1;
  for (const element of candidates) {
    const gap = side === 'above' ? edge - element.box.y1 : element.box.y0 - edge;
    if (gap > (taken.length === 0 ? FIRST_GAP_EM : NEXT_GAP_EM) * em) break;
    taken.push(element);
    edge = side === 'above' ? Math.min(edge, element.box.y0) : Math.max(edge, element.box.y1);
  }
  return centredOn(taken, rule, em);
}

/**
 * Numerators and denominators are centred on their bar, and a hand-drawn (or jittered) bar may
 * overshoot onto a neighbour such as the comma after a fraction. An element at one end, set apart
 * from the rest, that pulls the part off centre is given back.
 */
function centredOn(part: Element[], rule: Element, em: number): Element[] {
  let kept = part;
  while (kept.length > 1) {
    const offset = centreX(unionBox(kept.map((e) => e.box))) - centreX(rule.box);
    if (Math.abs(offset) < 0.15 * em) break;
    const end = [...kept].sort((a, b) => (offset > 0 ? b.box.x1 - a.box.x1 : a.box.x0 - b.box.x0))[0];
    const rest = unionBox(kept.filter((e) => e !== end).map((e) => e.box));
    const gap = offset > 0 ? end.box.x0 - rest.x1 : rest.x0 - end.box.x1;
    if (gap < 0.3 * em || Math.abs(centreX(rest) - centreX(rule.box)) >= Math.abs(offset)) break;
    kept = kept.filter((e) => e !== end);
  }
  return kept;
}

/**
 * What an overline or underline marks: the line next to it when that is an operator name or the
 * lines further out reach past its ends (the limits under an overlined `\lim`, amsmath's
 * `\varlimsup`), else all of them: an overline spans all it marks.
 */
function markedLine(side: Element[], rule: Element, em: number): Element[] {
  if (side.length < 2) return side;
  const nearest = side.reduce((a, b) => (Math.abs(centreY(b.box) - centreY(rule.box)) < Math.abs(centreY(a.box) - centreY(rule.box)) ? b : a));
  const line = side.filter((e) => overlap(e.box.y0, e.box.y1, nearest.box.y0, nearest.box.y1) > 0);
  const slack = 0.1 * em;
  const past = side.some((e) => !line.includes(e) && (e.box.x0 < rule.box.x0 - slack || e.box.x1 > rule.box.x1 + slack));
  // Under an overlined operator name the next line is its limit, however narrow (`\varlimsup_{n}`).
  return past || isOperatorName(line) ? line : side;
}

/** Operator names that take limits below them, which amsmath underlines or overlines (`\\varliminf`, `\\varlimsup`). */
const LIMIT_NAMES = new Set(['lim', 'max', 'min', 'sup', 'inf']);
const isOperatorName = (elements: Element[]) =>
  LIMIT_NAMES.has(
    [...elements]
      .sort((a, b) => a.box.x0 - b.box.x0)
      .map((element) => glyphOf(element)?.latex ?? '?')
      .join(''),
  );

/** A lone dot above and below a rule make '÷' (image front ends see three components). */
const isDot = (elements: Element[]) => elements.length === 1 && ['.', '\\cdot'].includes(glyphOf(elements[0])?.latex ?? '');

/** Two rules of about one width stacked closely with nothing between them are one '=' sign. */
function mergeEqualsSigns(elements: Element[]): Element[] {
  const rules = elements.filter(ruleGlyph).sort((a, b) => a.box.y0 - b.box.y0);
  const merged = new Set<Element>();
  const result: Element[] = [];
  for (const upper of rules) {
    if (merged.has(upper)) continue;
    const lower = rules.find(
      (other) =>
        other !== upper &&
        !merged.has(other) &&
        other.box.y0 > upper.box.y1 &&
        other.box.y0 - upper.box.y1 < 0.6 * width(upper.box) &&
        overlap(upper.box.x0, upper.box.x1, other.box.x0, other.box.x1) > 0.7 * Math.max(width(upper.box), width(other.box)) &&
        !elements.some(
          (e) => !ruleGlyph(e) && centreY(e.box) > upper.box.y1 && centreY(e.box) < other.box.y0 && overlap(e.box.x0, e.box.x1, upper.box.x0, upper.box.x1) > 0,
        ),
    );
    if (!lower) continue;
    merged.add(upper).add(lower);
    const box = unionBox([upper.box, lower.box]);
    const glyphs = [ruleGlyph(upper) as Glyph, ruleGlyph(lower) as Glyph];
    result.push(structureElement({ kind: 'merged', latex: '=', glyphs }, box, null, centreY(box)));
  }
  return [...elements.filter((element) => !merged.has(element)), ...result];
}
