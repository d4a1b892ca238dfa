import type { InkMask } from '../../worker/engine/math/image/binarise.js';
import { connectedComponents } from '../../worker/engine/math/image/components.js';
import type { Stroke } from '../../worker/engine/math/types.js';

/**
 * Typeset ink → pen strokes: parallel thinning to a one-pixel skeleton, then the skeleton traced
 * into polylines. Paths meeting at a junction are joined where they continue each other (the two
 * bars of + become two strokes crossing, as a hand draws them), short spurs left by serifs and
 * stroke ends are pruned, and each polyline is simplified.
 */

const NEIGHBOURS = [
  [0, -1],
  [1, -1],
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
] as const;

/**
 * Two-sub-pass parallel thinning (Zhang–Suen's scheme with Guo–Hall's deletion test): Zhang–Suen's
 * own test erases diagonal strokes two pixels thick outright, which wiped out the arms of × and
 * the slanted strokes of small italic letters; Guo–Hall's keeps them one pixel wide.
 */
export function thin(mask: InkMask): Uint8Array {
  const { width, height } = mask;
  const on = Uint8Array.from(mask.data, (v) => (v ? 1 : 0));
  const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < width && y < height ? on[y * width + x] : 0);
  for (let changed = true; changed;) {
    changed = false;
    for (const pass of [0, 1]) {
      const remove: number[] = [];
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          if (!on[y * width + x]) continue;
          // p2 north, then clockwise: p3 north-east … p9 north-west.
          const [p2, p3, p4, p5, p6, p7, p8, p9] = NEIGHBOURS.map(([dx, dy]) => at(x + dx, y + dy));
          const crossings = (+!p2 & (p3 | p4)) + (+!p4 & (p5 | p6)) + (+!p6 & (p7 | p8)) + (+!p8 & (p9 | p2));
          if (crossings !== 1) continue;
          const n1 = (p9 | p2) + (p3 | p4) + (p5 | p6) + (p7 | p8);
          const n2 = (p2 | p3) + (p4 | p5) + (p6 | p7) + (p8 | p9);
          const n = Math.min(n1, n2);
          if (n < 2 || n > 3) continue;
          const side = pass === 0 ? (p6 | p7 | +!p9) & p8 : (p2 | p3 | +!p5) & p4;
          if (side === 0) remove.push(y * width + x);
        }
      }
      for (const i of remove) on[i] = 0;
      if (remove.length) changed = true;
    }
  }
  // Staircases leave pixels with two 4-neighbours at a right angle that are themselves diagonal
  // neighbours: the corner pixel is redundant and would read as a junction.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!on[y * width + x]) continue;
      const n = at(x, y - 1),
        e = at(x + 1, y),
        s = at(x, y + 1),
        w = at(x - 1, y);
      const corner =
        (n && e && !at(x - 1, y + 1) && !s && !w) ||
        (e && s && !at(x - 1, y - 1) && !n && !w) ||
        (s && w && !at(x + 1, y - 1) && !n && !e) ||
        (w && n && !at(x + 1, y + 1) && !s && !e);
      if (corner) on[y * width + x] = 0;
    }
  }
  // Thinning can erase a small blob (a 2×2 dot) outright; such a blob keeps its centre pixel.
  const blobs = connectedComponents(mask);
  const kept = new Uint8Array(blobs.components.length + 1);
  for (let i = 0; i < on.length; i++) if (on[i]) kept[blobs.labels[i]] = 1;
  for (const { id, box } of blobs.components) {
    if (!kept[id]) on[Math.floor((box.y0 + box.y1) / 2) * width + Math.floor((box.x0 + box.x1) / 2)] = 1;
  }
  return on;
}

interface Path {
  points: Array<[number, number]>;
  /** Node cluster at each end, or -1 for a free end (a loop has none). */
  ends: [number, number];
}

/** Traces a skeleton into strokes; spurs shorter than `spurPx` are dropped. */
export function traceSkeleton(skeleton: Uint8Array, width: number, height: number, spurPx: number): Stroke[] {
  const at = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && skeleton[y * width + x] === 1;
  const neighbours = (i: number): number[] => {
    const x = i % width;
    const y = (i - x) / width;
    return NEIGHBOURS.filter(([dx, dy]) => at(x + dx, y + dy)).map(([dx, dy]) => (y + dy) * width + x + dx);
  };
  // Nodes are pixels of degree other than 2; touching nodes form one cluster (one junction).
  const cluster = new Int32Array(skeleton.length).fill(-1);
  const degree = new Map<number, number>();
  let clusters = 0;
  for (let i = 0; i < skeleton.length; i++) if (skeleton[i]) degree.set(i, neighbours(i).length);
  for (const [i, d] of degree) {
    if (d === 2 || cluster[i] >= 0) continue;
    const stack = [i];
    cluster[i] = clusters;
    while (stack.length) for (const j of neighbours(stack.pop()!)) if (degree.get(j) !== 2 && cluster[j] < 0) (stack.push(j), (cluster[j] = clusters));
    clusters++;
  }
  const visited = new Uint8Array(skeleton.length);
  // Paths into one junction end at different pixels of its cluster; ending them all at the
  // cluster's centre makes strokes that meet in the type meet in the trace.
  const centre = Array.from({ length: clusters }, () => [0, 0, 0]);
  for (const [i] of degree)
    if (cluster[i] >= 0) ((centre[cluster[i]][0] += i % width), (centre[cluster[i]][1] += Math.floor(i / width)), centre[cluster[i]][2]++);
  const point = (i: number): [number, number] => {
    const c = cluster[i] >= 0 ? centre[cluster[i]] : null;
    return c ? [c[0] / c[2] + 0.5, c[1] / c[2] + 0.5] : [(i % width) + 0.5, Math.floor(i / width) + 0.5];
  };
  const walk = (from: number, first: number): Path => {
    const points = [point(from), point(first)];
    let previous = from;
    let current = first;
    visited[first] = 1;
    while (cluster[current] < 0) {
      const around = neighbours(current).filter((j) => j !== previous);
      // Along the path while it lasts; then into a junction (not straight back into the one just left).
      const next =
        around.find((j) => cluster[j] < 0 && !visited[j]) ?? around.find((j) => cluster[j] >= 0 && (points.length > 2 || cluster[j] !== cluster[from]));
      if (next === undefined) {
        // A loop without junctions ends beside its start: close it.
        if (cluster[from] < 0 && neighbours(current).includes(from)) points.push(point(from));
        break;
      }
      previous = current;
      current = next;
      if (cluster[current] < 0) visited[current] = 1;
      points.push(point(current));
    }
    return { points, ends: [cluster[from], cluster[current]] };
  };
  const paths: Path[] = [];
  for (const [i] of degree) {
    if (cluster[i] < 0) continue;
    for (const j of neighbours(i)) if (cluster[j] < 0 && !visited[j]) paths.push(walk(i, j));
  }
  for (const [i] of degree) {
    if (visited[i] || cluster[i] >= 0) continue;
    // A closed loop without junctions (O, 0): start anywhere and walk back round to the start.
    visited[i] = 1;
    const path = walk(i, neighbours(i)[0]);
    path.ends = [-1, -1];
    paths.push(path);
  }
  for (let c = 0; c < clusters; c++) {
    const members = [...degree.keys()].filter((i) => cluster[i] === c);
    if (members.length && !paths.some((p) => p.ends.includes(c))) paths.push({ points: [point(members[0])], ends: [-1, -1] });
  }
  return joinAtJunctions(pruneSpurs(paths, spurPx, clusters)).map((p) => simplify(p.points, 0.7));
}

const pathLength = (p: Path): number => p.points.slice(1).reduce((sum, q, k) => sum + Math.hypot(q[0] - p.points[k][0], q[1] - p.points[k][1]), 0);

/** Drops short paths that end freely on one side and at a junction on the other (serifs, blobs at stroke ends). */
function pruneSpurs(paths: Path[], spurPx: number, clusters: number): Path[] {
  const ends = new Int32Array(clusters);
  for (const p of paths) for (const e of p.ends) if (e >= 0) ends[e]++;
  const freeEnd = (p: Path, e: number) => e >= 0 && ends[e] === 1;
  return paths.filter((p) => {
    const [a, b] = p.ends;
    const spur = a !== b && (freeEnd(p, a) || freeEnd(p, b)) && (ends[a] ?? 0) + (ends[b] ?? 0) >= 4 && pathLength(p) < spurPx;
    return !spur;
  });
}

/** At every junction, joins pairs of paths whose directions continue each other (within 50°), straightest first. */
function joinAtJunctions(paths: Path[]): Path[] {
  const direction = (p: Path, atStart: boolean): [number, number] => {
    const pts = atStart ? p.points : [...p.points].reverse();
    const far = pts[Math.min(pts.length - 1, 6)];
    const length = Math.hypot(far[0] - pts[0][0], far[1] - pts[0][1]) || 1;
    return [(far[0] - pts[0][0]) / length, (far[1] - pts[0][1]) / length];
  };
  for (let joined = true; joined;) {
    joined = false;
    const byCluster = new Map<number, Array<{ path: Path; atStart: boolean }>>();
    for (const path of paths) {
      path.ends.forEach((c, k) => c >= 0 && byCluster.set(c, [...(byCluster.get(c) ?? []), { path, atStart: k === 0 }]));
    }
    for (const ends of byCluster.values()) {
      let best: { a: (typeof ends)[number]; b: (typeof ends)[number]; cos: number } | undefined;
      for (let i = 0; i < ends.length; i++) {
        for (let j = i + 1; j < ends.length; j++) {
          if (ends[i].path === ends[j].path) continue;
          const [ax, ay] = direction(ends[i].path, ends[i].atStart);
          const [bx, by] = direction(ends[j].path, ends[j].atStart);
          const cos = ax * bx + ay * by;
          if ((ends.length === 2 || cos < -0.64) && (!best || cos < best.cos)) best = { a: ends[i], b: ends[j], cos };
        }
      }
      if (!best) continue;
      const first = best.a.atStart ? [...best.a.path.points].reverse() : best.a.path.points;
      const second = best.b.atStart ? best.b.path.points : [...best.b.path.points].reverse();
      const outer: [number, number] = [best.a.atStart ? best.a.path.ends[1] : best.a.path.ends[0], best.b.atStart ? best.b.path.ends[1] : best.b.path.ends[0]];
      paths = paths.filter((p) => p !== best.a.path && p !== best.b.path);
      paths.push({ points: [...first, ...second.slice(1)], ends: outer });
      joined = true;
      break;
    }
  }
  return paths;
}

/** Ramer–Douglas–Peucker simplification to within `epsilon` pixels. */
function simplify(points: Array<[number, number]>, epsilon: number): Stroke {
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = points[a];
    const [bx, by] = points[b];
    const length = Math.hypot(bx - ax, by - ay);
    let far = -1;
    let farDistance = epsilon;
    for (let k = a + 1; k < b; k++) {
      const [px, py] = points[k];
      const d = length === 0 ? Math.hypot(px - ax, py - ay) : Math.abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length;
      if (d > farDistance) ((far = k), (farDistance = d));
    }
    if (far >= 0) {
      keep[far] = 1;
      stack.push([a, far], [far, b]);
    }
  }
  const kept = points.filter((_, k) => keep[k]);
  return { x: kept.map((p) => p[0]), y: kept.map((p) => p[1]) };
}
