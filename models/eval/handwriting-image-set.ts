import type { GrayImage } from '../../worker/engine/math/types.js';
import { seededRandom } from '../training/augment.js';
import { inkImage } from '../training/handwriting-ink.js';
import { composedExpressions, type WriterPool } from './strokes-real-set.js';

/**
 * Pictures of handwritten expressions by held-out writers: the composed expressions of
 * strokes-real-set.ts (real fold-0 drawings laid out; no training crop comes from fold 0) drawn
 * as ink (handwriting-ink.ts) at 30–60 pixels per em with a pen 4–9 % of an em wide, as a phone
 * photo or scan of a written line shows them.
 */

/** The em of strokes-real-set.ts's expressions, in their units. */
const SET_EM = 100;
const EM_PX_RANGE = [30, 60] as const;
const PEN_EM_RANGE = [0.04, 0.09] as const;

export interface HandwrittenImage {
  id: string;
  latex: string;
  image: GrayImage;
}

/** `pool`: the writers drawn from (default the held-out writers, strokes-real-set.ts). */
export async function handwrittenImages(count: number, seed?: number, pool?: WriterPool): Promise<HandwrittenImage[]> {
  const random = seededRandom(7_001);
  return (await composedExpressions(count, seed, pool)).map((e) => {
    const emPx = EM_PX_RANGE[0] + random() * (EM_PX_RANGE[1] - EM_PX_RANGE[0]);
    const scale = emPx / SET_EM;
    const strokes = e.strokes.map((s) => ({ x: s.x.map((v) => v * scale), y: s.y.map((v) => v * scale) }));
    const penPx = emPx * (PEN_EM_RANGE[0] + random() * (PEN_EM_RANGE[1] - PEN_EM_RANGE[0]));
    return { id: e.id, latex: e.latex, image: inkImage(strokes, { penPx, ink: Math.round(random() * 60), marginPx: Math.round(emPx / 2) }) };
  });
}
