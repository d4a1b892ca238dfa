import { RADICAL, RULE, type Box } from '../types.js';
import { centreX, centreY, glyphOf, height, referenceEm, structureElement, unionBox, type Element, type Glyph, type ParseRow } from './element.js';

/**
 * Builds square and n-th roots. A RADICAL's box spans the sign and its vinculum, so the radicand
 * is what lies inside the box right of the hook; the index of `\sqrt[n]` is a small symbol above
 * the hook's left part (never a rule: a fraction bar above a root is not its index), in TeX set
 * to end about 0.55 em into the sign, whose hook is about 0.85 em
 * wide whatever its height; a front end that saw the sign's shape says where its tick bottoms out
 * (pen strokes: `hookEnd`). Outer radicals go first,
 * so a root inside a radicand is built when the radicand is parsed.
 */
export function groupRadicals(elements: Element[], parseRow: ParseRow): Element[] {
  const radicals = elements.filter((element) => glyphOf(element, RADICAL)).sort((a, b) => area(b) - area(a));
  let pool = elements;
  const em = referenceEm(elements);
  for (const radical of radicals) {
    if (!pool.includes(radical)) continue;
    const sign = radical.box;
    const size = height(sign);
    const drawnHook = glyphOf(radical)?.hookEnd;
    const hookEnd = drawnHook ?? sign.x0 + Math.min(0.6 * size, em);
    // A hand writes the radicand's first symbol tucked into the tick, even wholly left of its
    // bottom (a narrow parenthesis): what a drawn sign holds and is no index is radicand.
    const pastHook = (box: Box) => (drawnHook === undefined ? centreX(box) > hookEnd : centreX(box) > sign.x0);
    const others = pool.filter((element) => element !== radical);
    const index = others.filter(
      (element) =>
        !glyphOf(element, RULE) &&
        centreX(element.box) < hookEnd &&
        element.box.x1 < hookEnd + 0.3 * em &&
        element.box.x1 > sign.x0 + 0.05 * size &&
        element.box.y1 < sign.y0 + 0.6 * size &&
        element.box.y0 > sign.y0 - 0.6 * size &&
        height(element.box) < 0.6 * size,
    );
    const radicand = others.filter(
      (element) =>
        !index.includes(element) && pastHook(element.box) && centreX(element.box) < sign.x1 && centreY(element.box) > sign.y0 && centreY(element.box) < sign.y1,
    );
    const claimed = new Set([radical, ...index, ...radicand]);
    pool = pool.filter((element) => !claimed.has(element));
    const body = parseRow(radicand);
    const node = {
      kind: 'radical' as const,
      sign: glyphOf(radical) as Glyph,
      index: index.length > 0 ? parseRow(index).nodes : [],
      radicand: body.nodes,
    };
    const box = unionBox([...claimed].map((element) => element.box));
    pool.push(structureElement(node, box, body, centreY(sign)));
  }
  return pool;
}

const area = (element: Element) => height(element.box) * (element.box.x1 - element.box.x0);
