import { strokeDistance } from '../../worker/engine/math/strokes/geometry.js';
import type { Stroke } from '../../worker/engine/math/types.js';
import type { Random } from './augment.js';

/**
 * Makes traced type look handwritten: a slant and a slight rotation, a smooth elastic warp, each
 * stroke nudged on its own (a hand never puts the bar of a + exactly through the middle), and a
 * smoothed wobble along every stroke. `unit` is the em in the strokes' units, so every amount is
 * the same for a lone symbol and for a whole formula; `strength` scales them all (1 = training).
 */
export interface DistortOptions {
  unit: number;
  strength?: number;
}

function gaussian(random: Random): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

/** Points no further apart than `step`, so a warp bends long straight segments instead of only moving their ends. */
function resample(s: Stroke, step: number): Array<[number, number]> {
  const out: Array<[number, number]> = [[s.x[0], s.y[0]]];
  for (let i = 1; i < s.x.length; i++) {
    const n = Math.max(1, Math.ceil(Math.hypot(s.x[i] - s.x[i - 1], s.y[i] - s.y[i - 1]) / step));
    for (let k = 1; k <= n; k++) out.push([s.x[i - 1] + ((s.x[i] - s.x[i - 1]) * k) / n, s.y[i - 1] + ((s.y[i] - s.y[i - 1]) * k) / n]);
  }
  return out;
}

export function distortStrokes(strokes: readonly Stroke[], random: Random, opts: DistortOptions): Stroke[] {
  const { unit, strength = 1 } = opts;
  const xs = strokes.flatMap((s) => s.x);
  const ys = strokes.flatMap((s) => s.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const angle = gaussian(random) * 0.05 * strength;
  const slant = (random() * 2 - 1) * 0.3 * strength;
  const squeeze = 1 + (random() * 2 - 1) * 0.12 * strength;
  // Three plane waves per axis, one to four ems long: smooth at the scale of a symbol.
  const waves = Array.from({ length: 6 }, () => ({
    kx: (gaussian(random) * 2 * Math.PI) / (unit * (1 + 3 * random())),
    ky: (gaussian(random) * 2 * Math.PI) / (unit * (1 + 3 * random())),
    phase: random() * 2 * Math.PI,
    amplitude: 0.025 * unit * strength * random(),
  }));
  const warp = (x: number, y: number): [number, number] => {
    let dx = 0,
      dy = 0;
    waves.forEach((w, k) => {
      const v = w.amplitude * Math.sin(w.kx * x + w.ky * y + w.phase);
      if (k < 3) dx += v;
      else dy += v;
    });
    const u = (x - cx) * squeeze;
    const v = y - cy;
    const sx = u - slant * v;
    return [cx + sx * Math.cos(angle) - v * Math.sin(angle) + dx, cy + sx * Math.sin(angle) + v * Math.cos(angle) + dy];
  };
  const piece = pieces(strokes, 0.03 * unit);
  const shifts = Array.from({ length: Math.max(...piece) + 1 }, () => [gaussian(random) * 0.02 * unit * strength, gaussian(random) * 0.02 * unit * strength]);
  return strokes.map((s, index) => {
    const [shiftX, shiftY] = shifts[piece[index]];
    const points = resample(s, 0.06 * unit);
    // Wobble: white noise smoothed over five points, so it bends the line rather than roughening it.
    const noise = points.map(() => [gaussian(random), gaussian(random)]);
    const wobble = (k: number, axis: 0 | 1) => {
      let sum = 0,
        n = 0;
      for (let j = Math.max(0, k - 2); j <= Math.min(points.length - 1, k + 2); j++) ((sum += noise[j][axis]), n++);
      return (sum / n) * 0.012 * unit * strength;
    };
    const moved = points.map(([x, y], k) => warp(x + shiftX + wobble(k, 0), y + shiftY + wobble(k, 1)));
    return { x: moved.map((p) => p[0]), y: moved.map((p) => p[1]) };
  });
}

/**
 * The piece of connected ink each stroke belongs to (strokes traced from one glyph part meet at
 * its junctions), numbered 0..n-1: nudging traced strokes apart would tear glyphs that a pen
 * draws in one go.
 */
function pieces(strokes: readonly Stroke[], touch: number): number[] {
  const root = strokes.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i])));
  for (let i = 0; i < strokes.length; i++) {
    for (let j = i + 1; j < strokes.length; j++) if (find(i) !== find(j) && strokeDistance(strokes[i], strokes[j]) <= touch) root[find(i)] = find(j);
  }
  const numbers = new Map<number, number>();
  return strokes.map((_, i) => {
    if (!numbers.has(find(i))) numbers.set(find(i), numbers.size);
    return numbers.get(find(i))!;
  });
}
