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
      let label = 0;
      // Already-visited neighbours: west, north-west, north, north-east.
      const neighbours = [
        x > 0 ? labels[i - 1] : 0,
        x > 0 && y > 0 ? labels[i - width - 1] : 0,
        y > 0 ? labels[i - width] : 0,
        x + 1 < width && y > 0 ? labels[i - width + 1] : 0,
      ];
      for (const n of neighbours) if (n) label = label ? union(label, n) : n;
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
  const finalId = new Int32Array(next);
  const components: Component[] = [];
  for (let i = 0; i < labels.length; i++) {
    if (!labels[i]) continue;
    const root = find(labels[i]);
    if (!finalId[root]) {
      components.push({ id: components.length + 1, box: { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }, area: 0 });
      finalId[root] = components.length;
    }
    const id = finalId[root];
    labels[i] = id;
    const c = components[id - 1];
    const x = i % width;
    const y = (i - x) / width;
    c.area++;
    if (x < c.box.x0) c.box.x0 = x;
    if (y < c.box.y0) c.box.y0 = y;
    if (x + 1 > c.box.x1) c.box.x1 = x + 1;
    if (y + 1 > c.box.y1) c.box.y1 = y + 1;
  }
  return { labels, width, height, components };
}
