import { centreX, overlap, type Element } from './element.js';

/** TeX centres a limit on its operator; a line off by more than this (em) holds a neighbour's pieces. */
const CENTRED_EM = 0.15;

/**
 * The part of a limit line that is the operator's own. A wide limit (`\sum_{l_1+\cdots+l_p=l}`)
 * reaches toward the next operator, whose limit (`\prod_{i=1}`) may then touch it and grow into
 * one line with it: the operator's limit is the longest run of the line, left to right, that
 * holds a piece under the operator and is centred on it. A line with no such run is kept whole.
 */
export function centredRun(line: Element[], operator: Element, em: number): Element[] {
  if (line.length === 0) return line;
  const sorted = [...line].sort((a, b) => a.box.x0 - b.box.x0);
  const centre = centreX(operator.box);
  let best: Element[] | null = null;
  for (let start = 0; start < sorted.length; start++) {
    let x0 = Infinity;
    let x1 = -Infinity;
    for (let end = start; end < sorted.length; end++) {
      x0 = Math.min(x0, sorted[end]!.box.x0);
      x1 = Math.max(x1, sorted[end]!.box.x1);
      const run = sorted.slice(start, end + 1);
      const underOperator = run.some((e) => overlap(e.box.x0, e.box.x1, operator.box.x0, operator.box.x1) > 0);
      if (underOperator && Math.abs((x0 + x1) / 2 - centre) <= CENTRED_EM * em && (!best || run.length > best.length)) best = run;
    }
  }
  return best ?? line;
}

/** Whether a line's extent is centred on its operator within `tolerance`. */
export function isCentred(line: Element[], operator: Element, tolerance: number): boolean {
  const x0 = Math.min(...line.map((e) => e.box.x0));
  const x1 = Math.max(...line.map((e) => e.box.x1));
  return Math.abs((x0 + x1) / 2 - centreX(operator.box)) <= tolerance;
}
