import sharp from 'sharp';
import { seededRandom } from '../../models/training/augment.js';
import { scaleToEm } from '../../models/training/strokes-real-samples.js';
import { datasetsPresent, DATASETS_DIR, HELD_OUT_FOLD, readRealSamples, type RealSample } from '../../models/training/strokes-real.js';
import { SYMBOL_CLASSES } from '../../worker/engine/math/image/vocabulary.js';
import { strokesSvg } from '../../models/training/ink-render.js';
import { strokesBox } from '../../worker/engine/math/strokes/geometry.js';
import type { Stroke } from '../../worker/engine/math/types.js';

/**
 * Handwritten stand-ins for mpxpy's cases_hw.png (a photo of handwriting) and quadratic_eq.json
 * (pen strokes): real pen strokes of held-out writers (fold 0 of the shared UNIPEN and Detexify
 * sets, read by models/training/strokes-real.ts) laid out as f(x) = {x² if x ≥ 0; −x if x < 0}
 * (drawn with a round pen) and x² + 2x + 1 = 0. One UNIPEN writer draws every letter, digit and
 * operator it has; the rest (≥, a brace the writer has none of) comes from Detexify. Built at run
 * time from the data sets (FOLIO_DATASETS), never committed: UNIPEN's strokes may be used
 * in-house, never redistributed. Without the data sets there is no handwriting to draw: null.
 */

const EM = 46;
const PEN = 0.075 * EM;
const AXIS = -0.27 * EM;
const CENTRED = new Set(['=', '<', '>', '+', '\\geq', '-']);
/** Glyphs the writer must have drawn (≥ and the brace may come from anyone). */
const OWN_GLYPHS = ['f', '(', 'x', ')', '=', '+', '1', '2', '0', '<'];
const SHARED_GLYPHS = ['\\geq', '\\{'];

type Drawings = Map<string, RealSample[]>;

interface Glyph {
  strokes: Stroke[];
  width: number;
}

const shift = (strokes: Stroke[], dx: number, dy: number): Stroke[] => strokes.map((s) => ({ x: s.x.map((v) => v + dx), y: s.y.map((v) => v + dy) }));

/** One writer's hand: glyphs on a baseline at y = 0, and rows of them. */
class Hand {
  constructor(
    private readonly own: Drawings,
    private readonly shared: Drawings,
    private readonly random: () => number,
  ) {}

  drawing(label: string): RealSample {
    const pool = this.own.get(label) ?? this.shared.get(label)!;
    return pool[Math.floor(this.random() * pool.length)]!;
  }

  /** A glyph at `size` ems (relations centred on the maths axis, parentheses below the baseline). */
  glyph(label: string, size = 1): Glyph {
    const s = this.drawing(label);
    const placed = scaleToEm(s.strokes, s.label, EM * size);
    const box = strokesBox(placed);
    const h = box.y1 - box.y0;
    const bottom = CENTRED.has(label) ? AXIS + h / 2 : label === '(' || label === ')' ? 0.2 * EM * size : 0;
    return { strokes: shift(placed, 0, bottom - h), width: box.x1 - box.x0 };
  }

  minus(): Glyph {
    const w = 0.5 * EM;
    const xs = Array.from({ length: 8 }, (_, k) => (w * k) / 7);
    return { strokes: [{ x: xs, y: xs.map((x) => AXIS + 0.02 * x + (this.random() - 0.5) * 1.5) }], width: w };
  }

  squared(base: string): Glyph {
    const x = this.glyph(base);
    const two = this.glyph('2', 0.6);
    return { strokes: [...x.strokes, ...shift(two.strokes, x.width + 0.05 * EM, -0.45 * EM)], width: x.width + 0.05 * EM + two.width };
  }

  /** Glyphs side by side from x on the baseline y, with a hand's uneven gaps; where the row ends. */
  row(parts: Glyph[], x: number, y: number, gap = 0.14 * EM): { strokes: Stroke[]; end: number } {
    const strokes: Stroke[] = [];
    for (const p of parts) {
      strokes.push(...shift(p.strokes, x, y));
      x += p.width + gap * (0.8 + 0.4 * this.random());
    }
    return { strokes, end: x };
  }
}

/** A held-out UNIPEN writer who drew every glyph of OWN_GLYPHS, picked by `seed`; null without the data sets. */
async function heldOutHand(seed: number): Promise<Hand | null> {
  if (!datasetsPresent()) return null;
  const random = seededRandom(seed);
  const shared: Drawings = new Map();
  const writers = new Map<string, Drawings>();
  for (const s of await readRealSamples({ folds: (f) => f === HELD_OUT_FOLD })) {
    const label = SYMBOL_CLASSES[s.label]!;
    shared.set(label, [...(shared.get(label) ?? []), s]);
    if (s.source !== 'unipen') continue;
    const own = writers.get(s.writer) ?? new Map<string, RealSample[]>();
    own.set(label, [...(own.get(label) ?? []), s]);
    writers.set(s.writer, own);
  }
  const able = [...writers.keys()].filter((w) => OWN_GLYPHS.every((g) => writers.get(w)!.has(g))).sort();
  if (!able.length || SHARED_GLYPHS.some((g) => !shared.has(g))) throw new Error(`no held-out writer in ${DATASETS_DIR} drew ${OWN_GLYPHS.join(' ')}`);
  return new Hand(writers.get(able[Math.floor(random() * able.length)]!)!, shared, random);
}

function casesStrokes(hand: Hand): Stroke[] {
  const [top, bottom] = [1.1 * EM, 2.6 * EM];
  const lhs = hand.row(
    ['f', '(', 'x', ')', '='].map((g) => hand.glyph(g)),
    0.3 * EM,
    (top + bottom) / 2 + 0.2 * EM,
  );
  // The brace spans both rows, drawn once and stretched, as a hand draws it tall.
  const brace = hand.drawing('\\{').strokes;
  const box = strokesBox(brace);
  const [y0, y1] = [top - 1.05 * EM, bottom + 0.35 * EM];
  const [sx, sy] = [(0.45 * EM) / Math.max(box.x1 - box.x0, 1e-9), (y1 - y0) / Math.max(box.y1 - box.y0, 1e-9)];
  const braceX = lhs.end + 0.15 * EM;
  const braceStrokes = brace.map((s) => ({ x: s.x.map((v) => braceX + (v - box.x0) * sx), y: s.y.map((v) => y0 + (v - box.y0) * sy) }));
  const valuesX = braceX + 0.75 * EM;
  const first = hand.row([hand.squared('x')], valuesX, top);
  const second = hand.row([hand.minus(), hand.glyph('x')], valuesX, bottom);
  const conditionsX = Math.max(first.end, second.end) + 1.1 * EM;
  const conditions = [
    hand.row(
      ['x', '\\geq', '0'].map((g) => hand.glyph(g)),
      conditionsX,
      top,
      0.2 * EM,
    ),
    hand.row(
      ['x', '<', '0'].map((g) => hand.glyph(g)),
      conditionsX,
      bottom,
      0.2 * EM,
    ),
  ];
  return [...lhs.strokes, ...braceStrokes, ...first.strokes, ...second.strokes, ...conditions.flatMap((c) => c.strokes)];
}

function quadraticStrokes(hand: Hand): Stroke[] {
  const parts = [hand.squared('x'), hand.glyph('+'), hand.glyph('2'), hand.glyph('x'), hand.glyph('+'), hand.glyph('1'), hand.glyph('='), hand.glyph('0')];
  return shift(hand.row(parts, 0, 0, 0.2 * EM).strokes, 0.5 * EM, 1.5 * EM);
}

export interface Handwritten {
  /** f(x) = {x² if x ≥ 0; −x if x < 0}, as a PNG. */
  casesPng: Buffer;
  /** x² + 2x + 1 = 0 as pen strokes (y down). */
  quadratic: Stroke[];
}

export async function handwrittenFixtures(seed = 20_261_127): Promise<Handwritten | null> {
  const hand = await heldOutHand(seed);
  return hand && { casesPng: await draw(casesStrokes(hand)), quadratic: quadraticStrokes(hand) };
}

/** The strokes with a round pen, black on white, with a margin. */
async function draw(strokes: Stroke[]): Promise<Buffer> {
  // strokesSvg leaves two pen widths around the ink; half an em in all.
  const margin = Math.round(0.5 * EM - 2 * PEN);
  return sharp(Buffer.from(strokesSvg(strokes, 1, PEN)))
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
}
