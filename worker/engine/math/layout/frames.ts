import { FRAME } from '../types.js';
import { centreX, centreY, glyphOf, structureElement, type Element, type Glyph, type ParseRow } from './element.js';

/**
 * Builds `\boxed{…}`: what lies inside a FRAME's box is its body. Outer frames go first, so a frame
 * inside another is built when the outer body is parsed.
 */
export function groupFrames(elements: Element[], parseRow: ParseRow): Element[] {
  const frames = elements.filter((element) => glyphOf(element, FRAME)).sort((a, b) => area(b) - area(a));
  let pool = elements;
  for (const frame of frames) {
    if (!pool.includes(frame)) continue;
    const { x0, y0, x1, y1 } = frame.box;
    const body = pool.filter((e) => e !== frame && centreX(e.box) > x0 && centreX(e.box) < x1 && centreY(e.box) > y0 && centreY(e.box) < y1);
    const claimed = new Set([frame, ...body]);
    pool = pool.filter((element) => !claimed.has(element));
    const row = parseRow(body);
    const node = { kind: 'accent' as const, command: FRAME, marks: [glyphOf(frame) as Glyph], body: row.nodes };
    pool.push(structureElement(node, frame.box, row, centreY(frame.box)));
  }
  return pool;
}

const area = (element: Element) => (element.box.x1 - element.box.x0) * (element.box.y1 - element.box.y0);
