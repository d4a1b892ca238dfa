import type { Box } from '../types.js';
import type { InkMask } from './binarise.js';

/** One 8-connected blob of ink. Boxes are pixel edges: `x1`/`y1` are one past the last ink pixel. */
export interface Component {
  /** Label of the component's pixels in `ComponentMap.labels`. */
  id: number;
  box: Box;
  /** Number of ink pixels. */
  area: number;
}

export interface ComponentMap {
  /** Per pixel: 0 for background, otherwise the id of the pixel's component. */
  labels: Int32Array;
  width: number;
  height: number;
  components: Component[];
}

/**
 * Labels 8-connected components with the classic two-pass union-find over typed arrays: the first
 * pass gives each pixel a provisional label and records equivalences, the second rewrites every
 * label to its root. Components come out ordered by their first pixel in raster order.
 */
export function connectedComponents(mask: InkMask): ComponentMap {
  const { width, height, data } = mask;
  const labels = new Int32Array(width * height);
  // Parent links of provisional labels; at most one new label per pixel, usually far fewer.
  let parent = new Int32Array(1024);
  let next = 1;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  };
  const union = (a: number, b: number): number => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return ra;
    const root = Math.min(ra, rb);
    parent[Math.max(ra, rb)] = root;
    return root;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!data[i]) continue;
      // Already-visited neighbours: west, north-west, north, north-east. North touches the other
      // three, and west touches north-west, so pixels already joined are not joined again.
      const north = y > 0 ? labels[i - width]! : 0;
      let label = north;
      if (!north) {
        const west = x > 0 ? labels[i - 1]! : 0;
        const northWest = x > 0 && y > 0 ? labels[i - width - 1]! : 0;
        const northEast = x + 1 < width && y > 0 ? labels[i - width + 1]! : 0;
        const left = west || northWest;
        label = left && northEast ? union(left, northEast) : left || northEast;
      }
      if (!label) {
        if (next === parent.length) {
          const grown = new Int32Array(parent.length * 2);
          grown.set(parent);
          parent = grown;
        }
        parent[next] = next;
        label = next++;
      }
      labels[i] = label;
    }
  }
  // Second pass: final ids in order of first pixel, boxes and areas kept in typed arrays (one
  // entry per id) and made objects once at the end.
  const finalId = new Int32Array(next);
  const x0s = new Int32Array(next + 1);
  const y0s = new Int32Array(next + 1);
  const x1s = new Int32Array(next + 1);
  const y1s = new Int32Array(next + 1);
  const areas = new Int32Array(next + 1);
  let count = 0;
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      if (!labels[i]) continue;
      const root = find(labels[i]);
      let id = finalId[root]!;
      if (!id) {
        id = finalId[root] = ++count;
        x0s[id] = x;
        y0s[id] = y;
      }
      labels[i] = id;
      areas[id]!++;
      // Raster order: the first pixel gives the top row, the last the bottom one.
      if (x < x0s[id]!) x0s[id] = x;
      if (x + 1 > x1s[id]!) x1s[id] = x + 1;
      y1s[id] = y + 1;
    }
  }
  const components: Component[] = [];
  for (let id = 1; id <= count; id++) components.push({ id, box: { x0: x0s[id]!, y0: y0s[id]!, x1: x1s[id]!, y1: y1s[id]! }, area: areas[id]! });
  return { labels, width, height, components };
}
