import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import { strokesBox } from '../../worker/engine/math/strokes/geometry.js';
import type { Stroke } from '../../worker/engine/math/types.js';
import { seededRandom, type Random } from '../training/augment.js';
import { scaleToEm } from '../training/strokes-real-samples.js';
import { HELD_OUT_FOLD, readRealSamples, type RealSample } from '../training/strokes-real.js';

/**
 * Handwritten expressions of held-out writers: real symbol drawings of fold 0 (strokes-real.ts;
 * no training sample comes from it) composed with the layouts the typesetter knows — baselines,
 * superscripts and subscripts, fractions, radicals, parentheses — at one writer's size with size,
 * spacing and baseline jitter. One UNIPEN writer draws every digit, letter and operator of an
 * expression it has drawings of; the rest (Greek, radicals) comes from held-out Detexify drawings.
 * Minus signs and fraction bars are that writer's `-` when it has one, else a drawn line.
 */

const EM = 100;
const SEED = 20_261_127;
const DIGITS = [...'0123456789'];
const LETTERS = [...'abcdefghkmnpqrstuvwxyzABCDEFGHKMNPRTUVWXYZ'];
const GREEK = ['\\alpha', '\\beta', '\\theta', '\\pi', '\\lambda', '\\mu', '\\sigma', '\\phi'];
const RELATIONS = ['=', '=', '=', '<', '>'];
const DESCENDERS = new Set([...'gjpqy', ',', ';', '\\beta', '\\mu', '\\phi', '\\rho', '\\gamma', '\\eta', '\\chi', '\\psi', '\\xi', '\\zeta']);
const CENTRED = new Set(['+', '=', '<', '>', '\\times', '\\leq', '\\geq', '\\sim', '-']);

export interface ComposedExpression {
  id: string;
  latex: string;
  strokes: Stroke[];
}

/** A laid-out piece: strokes with y down, baseline at y = 0, starting at x = 0. */
export interface Piece {
  strokes: Stroke[];
  width: number;
  top: number;
  bottom: number;
  latex: string;
}

const classOf = new Map(SYMBOL_CLASSES.map((c, i) => [c, i]));

class Writer {
  constructor(
    private readonly own: Map<string, RealSample[]>,
    private readonly shared: Map<string, RealSample[]>,
    private readonly random: Random,
    readonly size: number,
  ) {}

  has(label: string): boolean {
    return Boolean(this.own.get(label)?.length || this.shared.get(label)?.length);
  }

  drawing(label: string): Stroke[] | undefined {
    const pool = this.own.get(label)?.length ? this.own.get(label)! : this.shared.get(label);
    if (!pool?.length) return undefined;
    return pool[Math.floor(this.random() * pool.length)].strokes;
  }

  jitter(amount: number): number {
    return 1 + (this.random() * 2 - 1) * amount;
  }
}

const shift = (strokes: Stroke[], dx: number, dy: number): Stroke[] => strokes.map((s) => ({ x: s.x.map((v) => v + dx), y: s.y.map((v) => v + dy) }));

/** A wobbly horizontal line from x0 to x1 at height y (a minus sign or a fraction bar). */
function line(w: Writer, x0: number, x1: number, y: number, random: Random): Stroke {
  const n = 12;
  const slope = (random() * 2 - 1) * 0.04;
  const xs = Array.from({ length: n }, (_, k) => x0 + ((x1 - x0) * k) / (n - 1));
  return { x: xs, y: xs.map((x) => y + (x - x0) * slope + (random() - 0.5) * 0.015 * w.size * EM) };
}

function symbol(w: Writer, label: string, size: number, random: Random): Piece {
  const em = EM * size * w.size * w.jitter(0.08);
  if (label === '-') {
    const width = em * 0.55 * w.jitter(0.2);
    return { strokes: [line(w, 0, width, -0.28 * em, random)], width, top: -0.3 * em, bottom: -0.26 * em, latex: '-' };
  }
  const drawing = w.drawing(label)!;
  const placed = scaleToEm(drawing, classOf.get(label)!, em, w.jitter(0.1));
  const box = strokesBox(placed);
  const height = box.y1 - box.y0;
  const bottom = CENTRED.has(label) ? -0.27 * em + height / 2 : label === '(' || label === ')' ? 0.22 * em : DESCENDERS.has(label) ? 0.25 * em : 0;
  return { strokes: shift(placed, 0, bottom - height), width: box.x1 - box.x0, top: bottom - height, bottom, latex: label };
}

function row(pieces: Piece[], w: Writer, gap: number): Piece {
  const strokes: Stroke[] = [];
  let x = 0;
  for (const p of pieces) {
    strokes.push(...shift(p.strokes, x, 0));
    x += p.width + gap * EM * w.size * w.jitter(0.4);
  }
  const last = gap * EM * w.size;
  return {
    strokes,
    width: x - last,
    top: Math.min(...pieces.map((p) => p.top)),
    bottom: Math.max(...pieces.map((p) => p.bottom)),
    latex: pieces.map((p) => p.latex).join(' '),
  };
}

function script(base: Piece, small: Piece, up: boolean, w: Writer): Piece {
  const x = base.width + 0.06 * EM * w.size;
  const dy = up ? base.top + 0.25 * EM * w.size - small.bottom : 0.25 * EM * w.size - small.top * 0.4;
  const strokes = [...base.strokes, ...shift(small.strokes, x, dy)];
  return {
    strokes,
    width: x + small.width,
    top: Math.min(base.top, small.top + dy),
    bottom: Math.max(base.bottom, small.bottom + dy),
    latex: `${base.latex}${up ? '^' : '_'}{${small.latex}}`,
  };
}

function fraction(num: Piece, den: Piece, w: Writer, random: Random): Piece {
  const width = Math.max(num.width, den.width) + 0.25 * EM * w.size * w.jitter(0.5);
  const axis = -0.27 * EM * w.size;
  const gap = 0.12 * EM * w.size;
  const strokes = [
    ...shift(num.strokes, (width - num.width) / 2, axis - gap - num.bottom),
    line(w, 0, width, axis, random),
    ...shift(den.strokes, (width - den.width) / 2, axis + gap - den.top),
  ];
  return { strokes, width, top: axis - gap - num.bottom + num.top, bottom: axis + gap - den.top + den.bottom, latex: `\\frac{${num.latex}}{${den.latex}}` };
}

function radical(body: Piece, w: Writer): Piece | undefined {
  const sign = w.drawing('\\sqrt');
  if (!sign) return undefined;
  const hook = 0.45 * EM * w.size;
  const top = body.top - 0.15 * EM * w.size;
  const bottom = body.bottom + 0.05 * EM * w.size;
  const box = strokesBox(sign);
  // The sign is stretched over the radicand, as a hand draws its vinculum as long as needed.
  const sx = (hook + body.width + 0.1 * EM * w.size) / Math.max(box.x1 - box.x0, 1e-9);
  const sy = (bottom - top) / Math.max(box.y1 - box.y0, 1e-9);
  const drawn = sign.map((s) => ({ x: s.x.map((v) => (v - box.x0) * sx), y: s.y.map((v) => (v - box.y0) * sy + top) }));
  return { strokes: [...drawn, ...shift(body.strokes, hook, 0)], width: hook + body.width + 0.1 * EM * w.size, top, bottom, latex: `\\sqrt{${body.latex}}` };
}

/** A random expression of one writer; undefined when the writer cannot draw a symbol it needs. */
function expression(w: Writer, random: Random): Piece | undefined {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const atom = (size: number): Piece => {
    const r = random();
    const label = r < 0.45 ? pick(DIGITS) : r < 0.9 ? pick(LETTERS) : pick(GREEK);
    return symbol(w, label, size, random);
  };
  const term = (size: number, depth: number): Piece | undefined => {
    const r = random();
    if (depth > 1 || r < 0.35) return atom(size);
    if (r < 0.5) return script(atom(size), atom(size * 0.7), true, w);
    if (r < 0.6) return script(atom(size), atom(size * 0.7), false, w);
    if (r < 0.75) return fraction(sum(size, depth + 1, 2), sum(size, depth + 1, 2), w, random);
    if (r < 0.87) {
      const body = sum(size, depth + 1, 2);
      return radical(body, w);
    }
    const inner = sum(size, depth + 1, 2);
    return row([symbol(w, '(', size, random), inner, symbol(w, ')', size, random)], w, 0.08);
  };
  const sum = (size: number, depth: number, most: number): Piece => {
    const n = 1 + Math.floor(random() * most);
    const parts: Piece[] = [];
    for (let k = 0; k < n; k++) {
      if (k > 0) parts.push(symbol(w, pick(['+', '-', '+']), size, random));
      parts.push(term(size, depth) ?? atom(size));
    }
    return row(parts, w, 0.18);
  };
  const left = sum(1, 0, 3);
  if (random() < 0.5) return left;
  return row([left, symbol(w, pick(RELATIONS), 1, random), sum(1, 0, 2)], w, 0.25);
}

/** Writers who drew digits and letters both (UNIPEN), with the drawings of each, and every drawing by class. */
export interface WriterPool {
  byWriter: Map<string, Map<string, RealSample[]>>;
  shared: Map<string, RealSample[]>;
  writers: string[];
}

/** The writer pool of the drawings of `folds` (held-out writers unless told), from `samples` when they are already read. */
export async function writerPool(folds: (fold: number) => boolean = (f) => f === HELD_OUT_FOLD, samples?: readonly RealSample[]): Promise<WriterPool> {
  const held = samples ? samples.filter((s) => folds(s.fold)) : await readRealSamples({ folds });
  const byWriter = new Map<string, Map<string, RealSample[]>>();
  const shared = new Map<string, RealSample[]>();
  for (const s of held) {
    const label = SYMBOL_CLASSES[s.label];
    shared.set(label, [...(shared.get(label) ?? []), s]);
    if (s.source !== 'unipen') continue;
    const mine = byWriter.get(s.writer) ?? new Map<string, RealSample[]>();
    mine.set(label, [...(mine.get(label) ?? []), s]);
    byWriter.set(s.writer, mine);
  }
  const writers = [...byWriter.entries()]
    .filter(([, m]) => DIGITS.filter((d) => m.has(d)).length >= 5 && LETTERS.filter((l) => m.has(l)).length >= 10)
    .map(([id]) => id)
    .sort();
  return { byWriter, shared, writers };
}

/** A baseline that slopes a little, as on paper without lines; the ink moved clear of the origin. */
function onPaper(piece: Piece, random: Random): Stroke[] {
  const angle = (random() * 2 - 1) * 0.04;
  const strokes = piece.strokes.map((s) => ({
    x: s.x.map((x, i) => x * Math.cos(angle) - s.y[i] * Math.sin(angle)),
    y: s.y.map((y, i) => s.x[i] * Math.sin(angle) + y * Math.cos(angle)),
  }));
  return shift(strokes, 10, 200);
}

/** The composed held-out set: `count` expressions, the same for the same seed (calibration uses another). */
export async function composedExpressions(count: number, seed = SEED, pool?: WriterPool): Promise<ComposedExpression[]> {
  const { byWriter, shared, writers } = pool ?? (await writerPool());
  const random = seededRandom(seed);
  const out: ComposedExpression[] = [];
  for (let k = 0; out.length < count && k < count * 3; k++) {
    const writer = new Writer(byWriter.get(writers[k % writers.length])!, shared, random, 0.6 + random() * 0.8);
    const piece = expression(writer, random);
    if (!piece) continue;
    out.push({ id: `hw-${String(out.length + 1).padStart(3, '0')}`, latex: piece.latex, strokes: onPaper(piece, random) });
  }
  return out;
}

/** The layouts of the composer, for a caller that builds its own expression from one writer's drawings. */
export interface Composer {
  /** `size`: 1 on the baseline, 0.7 in a script. */
  symbol(label: string, size?: number): Piece;
  row(pieces: Piece[]): Piece;
  script(base: Piece, small: Piece, up: boolean): Piece;
  fraction(num: Piece, den: Piece): Piece;
  radical(body: Piece): Piece | undefined;
}

class MissingDrawing extends Error {}

/**
 * One expression built by `build` from the drawings of `writer` (a pool writer; the pool's other
 * drawings stand in for classes the writer has none of), at an em of 100 units, laid on paper as
 * composedExpressions lays its own. Undefined when no drawing of a symbol it needs is in the pool.
 */
export function composedBy(pool: WriterPool, writer: string, seed: number, build: (c: Composer) => Piece | undefined): ComposedExpression | undefined {
  const random = seededRandom(seed);
  const w = new Writer(pool.byWriter.get(writer) ?? new Map(), pool.shared, random, 1);
  const composer: Composer = {
    symbol: (label, size = 1) => {
      if (label !== '-' && !w.has(label)) throw new MissingDrawing(label);
      return symbol(w, label, size, random);
    },
    row: (pieces) => row(pieces, w, 0.18),
    script: (base, small, up) => script(base, small, up, w),
    fraction: (num, den) => fraction(num, den, w, random),
    radical: (body) => radical(body, w),
  };
  try {
    const piece = build(composer);
    return piece && { id: `${writer}-${seed}`, latex: piece.latex, strokes: onPaper(piece, random) };
  } catch (err) {
    if (err instanceof MissingDrawing) return undefined;
    throw err;
  }
}

/**
 * Lines of handwritten prose: `words` spelt out, a few at a time, in one writer's letters and
 * digits (the pool's drawing of the same letter when the writer has none), letters close together,
 * words a space apart. `latex` holds the words as written.
 */
export function composedWordLines(count: number, words: readonly string[], seed: number, pool: WriterPool): ComposedExpression[] {
  const { byWriter, shared, writers } = pool;
  const random = seededRandom(seed);
  const out: ComposedExpression[] = [];
  for (let k = 0; out.length < count && k < count * 3; k++) {
    const writer = new Writer(byWriter.get(writers[k % writers.length])!, shared, random, 0.6 + random() * 0.8);
    const chosen = Array.from({ length: 2 + Math.floor(random() * 4) }, () => words[Math.floor(random() * words.length)]);
    if (!chosen.every((w) => [...w].every((c) => writer.drawing(c)))) continue;
    const line = row(
      chosen.map((w) =>
        row(
          [...w].map((c) => symbol(writer, c, 1, random)),
          writer,
          0.06,
        ),
      ),
      writer,
      0.45,
    );
    out.push({ id: `words-${String(out.length + 1).padStart(3, '0')}`, latex: chosen.join(' '), strokes: onPaper(line, random) });
  }
  return out;
}
