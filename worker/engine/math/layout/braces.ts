import { OVERBRACE, UNDERBRACE } from '../types.js';
import {
  centreX,
  centreY,
  glyphOf,
  height,
  referenceEm,
  structureElement,
  unionBox,
  width,
  type Element,
  type Glyph,
  type Node,
  type ParseRow,
} from './element.js';

/** A brace's label starts within this (em) of the brace; the label's own lines overlap it. */
const LABEL_GAP_EM = 0.6;

/**
 * Builds `\underbrace{…}_{…}` and `\overbrace{…}^{…}` from an UNDERBRACE or OVERBRACE symbol: what
 * lies over (under) the brace within its span is its body, and the line just beyond it on the
 * other side, within its span, its label. Wider braces go first, so a brace inside another's body
 * is built when that body is parsed.
 */
export function groupBraces(elements: Element[], parseRow: ParseRow): Element[] {
  const braces = elements.filter((element) => glyphOf(element, UNDERBRACE) || glyphOf(element, OVERBRACE)).sort((a, b) => width(b.box) - width(a.box));
  if (braces.length === 0) return elements;
  const em = referenceEm(elements);
  let pool = elements;
  for (const brace of braces) {
    if (!pool.includes(brace)) continue;
    const under = glyphOf(brace, UNDERBRACE) !== null;
    const spanned = pool.filter((e) => e !== brace && centreX(e.box) > brace.box.x0 && centreX(e.box) < brace.box.x1);
    const half = height(brace.box) / 2;
    const body = spanned.filter((e) => (under ? e.box.y1 <= brace.box.y0 + half : e.box.y0 >= brace.box.y1 - half));
    const beyond = spanned.filter((e) => !body.includes(e) && (under ? e.box.y0 >= brace.box.y1 - half : e.box.y1 <= brace.box.y0 + half));
    const distance = (e: Element) => (under ? e.box.y0 - brace.box.y1 : brace.box.y0 - e.box.y1);
    const first = beyond.filter((e) => distance(e) < LABEL_GAP_EM * em);
    const label = first.length === 0 ? [] : beyond.filter((e) => overlapsBand(e, first));
    if (body.length === 0) continue;
    const claimed = new Set([brace, ...body, ...label]);
    pool = pool.filter((element) => !claimed.has(element));
    const row = parseRow(body);
    const accent: Node = { kind: 'accent', command: under ? UNDERBRACE : OVERBRACE, marks: [glyphOf(brace) as Glyph], body: row.nodes };
    const labelNodes = label.length > 0 ? parseRow(label).nodes : [];
    const node: Node = labelNodes.length === 0 ? accent : { kind: 'limits', operator: accent, under: under ? labelNodes : [], over: under ? [] : labelNodes };
    // The body is on the line; the label hangs off it as a limit does.
    const bodyBox = unionBox(body.map((element) => element.box));
    pool.push(structureElement(node, unionBox([...claimed].map((element) => element.box)), row, centreY(bodyBox)));
  }
  return pool;
}

/** Whether an element shares height with the band of `line`. */
function overlapsBand(element: Element, line: Element[]): boolean {
  const y0 = Math.min(...line.map((e) => e.box.y0));
  const y1 = Math.max(...line.map((e) => e.box.y1));
  return element.box.y0 < y1 && element.box.y1 > y0;
}
