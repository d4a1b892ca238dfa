import type { Stroke } from '../types.js';
import { strokeBox } from './geometry.js';

/**
 * Vertical gap, in symbol heights, that separates two written expressions. A fraction's parts,
 * scripts and limits sit within half a symbol height of each other; writers leave about a line.
 */
const LINE_GAP = 0.9;

/**
 * Splits writing into expressions stacked top to bottom: strokes whose vertical extents overlap or
 * nearly do (chained, so a fraction's numerator, bar and denominator stay together) form one line.
 */
export function splitLines(strokes: readonly Stroke[], symbolHeight: number): Stroke[][] {
  const spans = strokes.map((s, index) => ({ index, box: strokeBox(s) })).sort((a, b) => a.box.y0 - b.box.y0);
  const lines: Array<{ bottom: number; members: number[] }> = [];
  for (const { index, box } of spans) {
    const last = lines.at(-1);
    if (last && box.y0 - last.bottom <= LINE_GAP * symbolHeight) {
      last.members.push(index);
      last.bottom = Math.max(last.bottom, box.y1);
    } else {
      lines.push({ bottom: box.y1, members: [index] });
    }
  }
  // Drawing order within a line is kept: it is the writer's order, whatever the sort above did.
  return lines.map((line) => line.members.sort((a, b) => a - b).map((i) => strokes[i]));
}
