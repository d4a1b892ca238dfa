/** Sorted union of intervals, joining those whose gap is at most `joinGap`. */
export function mergeIntervals(intervals: Array<[number, number]>, joinGap: number): Array<[number, number]> {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start - last[1] <= joinGap) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
