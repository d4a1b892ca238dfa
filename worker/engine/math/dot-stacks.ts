import type { Box, MathSymbol } from './types.js';

/**
 * TeX builds `\vdots` and `\ddots` from three full stops of the text font: stacked 0.4 em apart
 * (`\vdots`), or each 0.3 em lower and a little to the right of the last (`\ddots`). A PDF holds
 * the three stops, an image three dots; these are joined back into the one symbol, which matters
 * most in a matrix, whose rows the three stops would otherwise split into three rows of dots.
 */

/** Neighbouring dots of one stack are at least this far apart (share of the font size)… */
const MIN_STEP = 0.2;
/** …at most this far… */
const MAX_STEP = 0.7;
/** …and their steps differ by at most this. */
const STEP_TOLERANCE = 0.1;

const centre = (box: Box) => ({ x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 });

/**
 * What three dots, top to bottom, make — `\vdots`, `\ddots`, or nothing — at font size `size` (an
 * image's em); their own heights agree within `sameSize`.
 */
export function dotStack(dots: Box[], size: number, sameSize = 0.1 * size): string | undefined {
  if (dots.length !== 3) return undefined;
  const heights = dots.map((box) => box.y1 - box.y0);
  if (Math.max(...heights) - Math.min(...heights) > sameSize) return undefined;
  const [a, b, c] = [...dots].sort((p, q) => centre(p).y - centre(q).y).map(centre) as [
    { x: number; y: number },
    { x: number; y: number },
    { x: number; y: number },
  ];
  const steps = [
    { dx: b.x - a.x, dy: b.y - a.y },
    { dx: c.x - b.x, dy: c.y - b.y },
  ];
  const even = Math.abs(steps[0]!.dx - steps[1]!.dx) <= STEP_TOLERANCE * size && Math.abs(steps[0]!.dy - steps[1]!.dy) <= STEP_TOLERANCE * size;
  if (!even || steps.some(({ dy }) => dy < MIN_STEP * size || dy > MAX_STEP * size)) return undefined;
  const dx = steps[0]!.dx;
  if (Math.abs(dx) <= STEP_TOLERANCE * size) return '\\vdots';
  return dx >= MIN_STEP * size && dx <= MAX_STEP * size ? '\\ddots' : undefined;
}

/**
 * Joins each stack of three dots into `\vdots` or `\ddots`: full stops sized by their font (a
 * PDF's), or, given an image's `em`, its full stops and centred dots alike.
 */
export function joinDotStacks(symbols: MathSymbol[], em?: number): MathSymbol[] {
  const isDot = (s: MathSymbol) => s.latex === '.' || (em !== undefined && s.latex === '\\cdot');
  const sizeOf = (s: MathSymbol) => em ?? s.size ?? s.box.y1 - s.box.y0;
  // An image's dots come in whole pixels: one pixel more or less is the same dot.
  const sameSize = (s: MathSymbol) => (em === undefined ? 0.1 * sizeOf(s) : Math.max(1, 0.05 * em));
  const dots = symbols.filter(isDot).sort((a, b) => centre(a.box).y - centre(b.box).y);
  if (dots.length < 3) return symbols;
  const used = new Set<MathSymbol>();
  const joined: MathSymbol[] = [];
  for (const top of dots) {
    if (used.has(top)) continue;
    const reach = MAX_STEP * sizeOf(top);
    const below = (from: MathSymbol) =>
      dots.filter((d) => {
        const [p, q] = [centre(d.box), centre(from.box)];
        return !used.has(d) && d !== top && d !== from && p.y > q.y && Math.hypot(p.x - q.x, p.y - q.y) <= reach * 1.5;
      });
    const stackOf = (stack: MathSymbol[]) =>
      dotStack(
        stack.map((d) => d.box),
        sizeOf(top),
        sameSize(top),
      );
    for (const middle of below(top)) {
      const bottom = below(middle).find((d) => stackOf([top, middle, d]) !== undefined);
      if (!bottom) continue;
      const stack = [top, middle, bottom];
      stack.forEach((dot) => used.add(dot));
      const box = { x0: Math.min(...stack.map((d) => d.box.x0)), y0: top.box.y0, x1: Math.max(...stack.map((d) => d.box.x1)), y1: bottom.box.y1 };
      const confidence = Math.min(...stack.map((d) => d.confidence));
      joined.push({
        latex: stackOf(stack)!,
        box,
        confidence,
        ...(bottom.baseline !== undefined ? { baseline: bottom.baseline } : {}),
        ...(top.size !== undefined ? { size: top.size } : {}),
      });
      break;
    }
  }
  return joined.length ? [...symbols.filter((s) => !used.has(s)), ...joined] : symbols;
}
