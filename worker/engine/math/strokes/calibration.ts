/**
 * confidence_rate for a strokes read, calibrated on handwriting of held-out writers
 * (models/eval/strokes-calibrate.ts): the chance that the whole read is exact, estimated from its
 * least sure symbol (a formula is exactly as right as its weakest symbol) through a monotone table
 * fitted on composed expressions of writers no training sample came from. The spec's default
 * confidence_rate_threshold 0.75 then refuses reads that are more likely wrong than right.
 */

/** (least symbol confidence, observed exact rate) knots, increasing; linear between them. */
export const RATE_KNOTS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [0.056, 0],
  [0.103, 0.066],
  [0.168, 0.069],
  [0.283, 0.111],
  [0.379, 0.25],
  [0.442, 0.367],
  [0.501, 0.429],
  [0.534, 0.462],
  [0.574, 0.5],
  [0.609, 0.625],
  [0.671, 0.778],
  [0.818, 0.88],
  [0.969, 1],
  [1, 1],
];

export function calibratedRate(symbolConfidences: readonly number[]): number {
  if (!symbolConfidences.length) return 0;
  const least = Math.min(...symbolConfidences);
  for (let i = 1; i < RATE_KNOTS.length; i++) {
    const [x0, y0] = RATE_KNOTS[i - 1];
    const [x1, y1] = RATE_KNOTS[i];
    if (least <= x1) return x1 === x0 ? y1 : y0 + ((y1 - y0) * (least - x0)) / (x1 - x0);
  }
  return RATE_KNOTS[RATE_KNOTS.length - 1][1];
}
