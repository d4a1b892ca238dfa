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
    const decided = decide(rule, above, below, em, parseRow);
    // A plain minus takes nothing with it: what lay near it stays in the row.
    const claimed = new Set(decided.node.kind === 'glyph' ? [rule] : [rule, ...above, ...below]);
    pool = pool.filter((element) => !claimed.has(element));
    pool.push(decided);
  }
  return pool;
}

function decide(rule: Element, above: Element[], below: Element[], em: number, parseRow: ParseRow): Element {
  const bar = ruleGlyph(rule) as Glyph;
  const box = unionBox([rule, ...above, ...below].map((element) => element.box));
  if (isDot(above) && isDot(below)) {
    const glyphs = [bar, ...[...above, ...below].map((element) => glyphOf(element) as Glyph)];
    return structureElement({ kind: 'merged', latex: '\\div', glyphs }, box, null, centreY(rule.box));
  }
  if (above.length > 0 && below.length > 0) {
    const node = { kind: 'fraction' as const, bar, numerator: parseRow(above).nodes, denominator: parseRow(below).nodes };
    return structureElement(node, box, null, centreY(rule.box));
  }
  const marked = below.length > 0 ? below : above;
  const gap = below.length > 0 ? Math.min(...below.map((e) => e.box.y0)) - rule.box.y1 : rule.box.y0 - Math.max(...above.map((e) => e.box.y1));
  // An overline or underline spans what it marks; a superscript minus over a subscript (`O_4^-`)
  // starts with it and overhangs it on the right. The reach beyond each side counts alone: a rule
  // starting a pixel inside its subscript is not the shorter for it.
  const span = marked.length > 0 ? unionBox(marked.map((e) => e.box)) : rule.box;
  const overhang = Math.max(0, span.x0 - rule.box.x0) + Math.max(0, rule.box.x1 - span.x1);
  if (marked.length > 0 && gap < MARK_GAP_EM * em && overhang < MARK_OVERHANG * width(rule.box)) {
    const row = parseRow(marked);
    // \overline spans its body's full width; the \bar accent is a shorter mark over one symbol.
    const accent = row.nodes.length === 1 && row.nodes[0].kind === 'glyph' && width(rule.box) < 0.9 * width(marked[0].box);
    const command = below.length > 0 ? (accent ? '\\bar' : '\\overline') : '\\underline';
    return structureElement({ kind: 'accent', command, marks: [bar], body: row.nodes }, box, row, centreY(box));
  }
  return structureElement({ kind: 'glyph', glyph: bar, latex: '-' }, rule.box, null, centreY(rule.box));
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
