import { z } from 'zod';

/**
 * What the appliance and the inference worker share about pen strokes (/v3/strokes): the strokes
 * a 'strokes' task carries and the read the worker answers. Recognition itself runs in the worker
 * (worker/inference/strokes.ts); the appliance shapes the spec 2.1 answer from the read.
 */

/** One pen stroke: its points' x and y in drawing order, y growing downwards. */
export const strokeSchema = z.object({ x: z.array(z.number()).min(1), y: z.array(z.number()).min(1) });
export type Stroke = z.infer<typeof strokeSchema>;

export interface StrokesRead {
  /** LaTeX without delimiters; '' when nothing was recognised. */
  latex: string;
  /** The calibrated chance, 0..1, that the read is exact (worker/inference/strokes-confidence.ts). */
  confidence: number;
  /** One entry per symbol read, in reading order, with its own confidence. */
  boxes: Array<{ confidence: number }>;
  /** The same chance on the scale the default confidence_rate_threshold 0.75 is read on: the answer's confidence_rate. */
  confidenceRate: number;
}
