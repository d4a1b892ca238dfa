import { isRelation } from '../../page/processors/display-rows.js';
import type { MathResult } from '../engine/math/types.js';

/** A relation this much narrower than the row's widest is in a script or a limit (`\sum_{i=1}`). */
const MAIN_SIZE = 0.75;

/**
 * Where a row of display maths aligns (page/processors/display-rows.ts): the left edge of its first
 * main-size relation, in the row image's pixels; undefined without one.
 */
export function firstRelationX(boxes: MathResult['boxes']): number | undefined {
  const relations = boxes.filter((b) => isRelation(b.latex));
  const widest = Math.max(0, ...relations.map((r) => r.box.x1 - r.box.x0));
  const main = relations.filter((r) => r.box.x1 - r.box.x0 >= MAIN_SIZE * widest);
  return main.length ? Math.min(...main.map((r) => r.box.x0)) : undefined;
}
