/** Measures the /v3/text layout rules share (blocks.ts, columns.ts, tables.ts here). */

/** The upper median (the middle value, or the higher of the two middle ones); 0 for none. */
export function upperMedian(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Words of a line's text: runs of non-space characters. */
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
