import type { MathSymbol } from '../types.js';

/**
 * TeX builds `\vdots` and `\ddots` from three full stops of the text font: stacked 0.4 em apart
 * (`\vdots`), or each 0.3 em lower and a little to the right of the last (`\ddots`). A PDF holds
 * the three stops; these are joined back into the one symbol, which matters most in a matrix, whose
 * rows the three stops would otherwise split into three rows of dots.
 */

/** Neighbouring dots of one stack are at least this far apart (share of the font size)… */
const MIN_STEP = 0.2;
/** …at most this far… */
const MAX_STEP = 0.7;
/** …and their steps differ by at most this. */
const STEP_TOLERANCE = 0.1;

const centre = (s: MathSymbol) => ({ x: (s.box.x0 + s.box.x1) / 2, y: (s.box.y0 + s.box.y1) / 2 });
const sizeOf = (s: MathSymbol) => s.size ?? s.box.y1 - s.box.y0;

/** What three dots, top to bottom, make: `\vdots`, `\ddots`, or nothing. */
function stackOf(dots: MathSymbol[]): string | undefined {
  const size = sizeOf(dots[0]!);
  if (dots.some((dot) => Math.abs(sizeOf(dot) - size) > 0.1 * size)) return undefined;
  const [a, b, c] = dots.map(centre) as [{ x: number; y: number }, { x: number; y: number }, { x: number; y: number }];
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

/** Joins each stack of three full stops into `\vdots` or `\ddots`. */
export function joinDotStacks(symbols: MathSymbol[]): MathSymbol[] {
  const dots = symbols.filter((s) => s.latex === '.').sort((a, b) => centre(a).y - centre(b).y);
  if (dots.length < 3) return symbols;
  const used = new Set<MathSymbol>();
  const joined: MathSymbol[] = [];
  for (const top of dots) {
    if (used.has(top)) continue;
    const reach = MAX_STEP * sizeOf(top);
    const below = (from: MathSymbol) =>
      dots.filter(
        (d) =>
          !used.has(d) &&
          d !== top &&
          d !== from &&
          centre(d).y > centre(from).y &&
          Math.hypot(centre(d).x - centre(from).x, centre(d).y - centre(from).y) <= reach * 1.5,
      );
    for (const middle of below(top)) {
      const bottom = below(middle).find((d) => stackOf([top, middle, d]) !== undefined);
      if (!bottom) continue;
      const stack = [top, middle, bottom];
      stack.forEach((dot) => used.add(dot));
      const box = { x0: Math.min(...stack.map((d) => d.box.x0)), y0: top.box.y0, x1: Math.max(...stack.map((d) => d.box.x1)), y1: bottom.box.y1 };
      joined.push({ latex: stackOf(stack)!, box, confidence: 1, baseline: bottom.baseline, size: top.size });
      break;
    }
  }
  return joined.length ? [...symbols.filter((s) => !used.has(s)), ...joined] : symbols;
}
