/**
 * Drawings that must never become molecules, for `make eval-chem`: line plots, scatter plots and
 * bar charts with axes, ticks and labels; labelled triangles, polygons and circles of geometry;
 * ruled tables whose cells hold chemists' words (N, OH, Cl); circuits with resistor zig-zags; flow
 * charts with arrows. Each is an SVG from a seeded generator, so a run is repeatable.
 */

import { seededRandom as seeded } from '../../training/augment.js';

/** The chemistry sets draw with the training scripts' seeded generator (mulberry32). */
export { seeded };

export const DISTRACTOR_KINDS = ['line-plot', 'scatter', 'bars', 'triangle', 'polygon', 'circle', 'table', 'circuit', 'flowchart'] as const;
export type DistractorKind = (typeof DISTRACTOR_KINDS)[number];

const W = 400;
const H = 300;
const text = (x: number, y: number, s: string, size = 14, family = 'sans-serif') =>
  `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" font-family="${family}" font-size="${size}">${s}</text>`;
const line = (x1: number, y1: number, x2: number, y2: number) =>
  `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}"/>`;
const svg = (body: string, w = W, h = H) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="white"/><g stroke="black" stroke-width="1.6" fill="none">${body}</g></svg>`;
const labels = (body: string) => `</g><g fill="black" stroke="none">${body}</g><g stroke="black" stroke-width="1.6" fill="none">`;

function axes(r: () => number): string {
  let out = line(50, 250, 380, 250) + line(50, 250, 50, 20);
  const ticks = 4 + Math.floor(r() * 4);
  let tickLabels = '';
  for (let i = 1; i <= ticks; i++) {
    const x = 50 + (i * 320) / ticks;
    const y = 250 - (i * 220) / ticks;
    out += line(x, 250, x, 256) + line(44, y, 50, y);
    tickLabels += text(x - 5, 272, String(i * 2)) + text(22, y + 5, String(i * 10));
  }
  return out + labels(tickLabels + text(200, 294, r() < 0.5 ? 't (s)' : 'x') + text(4, 140, r() < 0.5 ? 'N' : 'OH'));
}

const GENERATORS: Record<DistractorKind, (r: () => number) => string> = {
  'line-plot': (r) => {
    const [a, f, p] = [40 + r() * 60, 0.02 + r() * 0.05, r() * 6];
    const pts = Array.from({ length: 80 }, (_, i) => `${(50 + i * 4).toFixed(1)},${(140 - a * Math.sin(f * i * 4 + p)).toFixed(1)}`).join(' ');
    const straight =
      r() < 0.5 ? `<polyline points="50,230 ${120 + r() * 60},${100 + r() * 60} ${260 + r() * 40},${140 + r() * 40} 370,${40 + r() * 40}"/>` : '';
    return svg(axes(r) + `<polyline points="${pts}"/>` + straight);
  },
  scatter: (r) =>
    svg(
      axes(r) +
        Array.from({ length: 25 }, () => `<circle cx="${(60 + r() * 300).toFixed(1)}" cy="${(40 + r() * 190).toFixed(1)}" r="3"/>`).join('') +
        line(60, 230, 360, 50),
    ),
  bars: (r) =>
    svg(axes(r) + Array.from({ length: 5 }, (_, i) => `<rect x="${70 + i * 60}" y="${(250 - 40 - r() * 180).toFixed(1)}" width="36" height="200"/>`).join('')),
  triangle: (r) => {
    const p = [
      [40 + r() * 60, 240 - r() * 30],
      [300 + r() * 60, 240 - r() * 30],
      [120 + r() * 160, 30 + r() * 60],
    ] as const;
    const names = r() < 0.5 ? ['A', 'B', 'C'] : ['O', 'N', 'H'];
    return svg(
      `<polygon points="${p.map((q) => q.join(',')).join(' ')}"/>` +
        line(p[2][0], p[2][1], (p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2) +
        labels(
          p.map((q, i) => text(q[0] - 8, q[1] + (i === 2 ? -8 : 22), names[i]!, 18, 'serif')).join('') +
            text((p[0][0] + p[1][0]) / 2 - 4, 262, 'c', 16, 'serif'),
        ),
    );
  },
  polygon: (r) => {
    const n = 4 + Math.floor(r() * 5);
    const [cx, cy, rad, turn] = [200, 150, 90 + r() * 30, r() * Math.PI];
    const pts = Array.from(
      { length: n },
      (_, i) => [cx + rad * Math.cos(turn + (2 * Math.PI * i) / n), cy + rad * Math.sin(turn + (2 * Math.PI * i) / n)] as const,
    );
    const diag = r() < 0.6 ? line(pts[0]![0], pts[0]![1], pts[2]![0], pts[2]![1]) : '';
    return svg(
      `<polygon points="${pts.map((q) => q.map((v) => v.toFixed(1)).join(',')).join(' ')}"/>` +
        diag +
        labels(pts.map((q, i) => text(q[0] + (q[0] > cx ? 6 : -18), q[1] + (q[1] > cy ? 18 : -6), String.fromCharCode(80 + i), 16, 'serif')).join('')),
    );
  },
  circle: (r) => {
    const [cx, cy, rad] = [200, 150, 80 + r() * 40];
    const a = r() * Math.PI;
    const [x1, y1, x2, y2] = [cx + rad * Math.cos(a), cy + rad * Math.sin(a), cx - rad * Math.cos(a), cy - rad * Math.sin(a)];
    return svg(
      `<circle cx="${cx}" cy="${cy}" r="${rad.toFixed(1)}"/>` +
        line(x1, y1, x2, y2) +
        line(x1, y1, cx + rad * Math.cos(a + 2), cy + rad * Math.sin(a + 2)) +
        line(cx, cy, cx + rad * Math.cos(a + 2), cy + rad * Math.sin(a + 2)) +
        labels(text(cx + 4, cy - 4, 'O', 16, 'serif') + text(x1 + 6, y1, 'A', 16, 'serif') + text(x2 - 16, y2, 'B', 16, 'serif')),
    );
  },
  table: (r) => {
    const rows = 3 + Math.floor(r() * 4);
    const cells = [
      ['Compound', 'N', 'OH', 'Cl'],
      ...Array.from({ length: rows }, (_, i) => [`C${i + 1}H${2 * i + 4}`, String(Math.floor(r() * 9)), (r() * 9).toFixed(1), r() < 0.5 ? 'yes' : 'no']),
    ];
    const rowH = 260 / cells.length;
    let body = '';
    for (let i = 0; i <= cells.length; i++) body += line(10, 20 + i * rowH, 390, 20 + i * rowH);
    if (r() < 0.5) for (const x of [10, 150, 230, 310, 390]) body += line(x, 20, x, 20 + cells.length * rowH);
    return svg(body + labels(cells.map((row, i) => row.map((c, j) => text([18, 160, 240, 320][j]!, 20 + i * rowH + rowH * 0.65, c)).join('')).join('')));
  },
  circuit: (r) => {
    const zig = Array.from({ length: 7 }, (_, i) => `${130 + i * 15},${i % 2 ? 35 : 65}`).join(' ');
    const body =
      `<polyline points="40,200 40,50 120,50 ${zig} 240,50 300,50 300,100"/>` +
      line(280, 100, 320, 100) +
      line(280, 112, 320, 112) +
      `<polyline points="300,112 300,200 40,200"/>` +
      line(25, 120, 55, 120) +
      line(32, 130, 48, 130);
    const extra = r() < 0.5 ? `<polyline points="170,200 170,${150 - r() * 20} 200,${150 - r() * 20} 200,200"/>` : '';
    return svg(body + extra + labels(text(160, 25, 'R', 18, 'serif') + text(330, 112, 'C', 18, 'serif') + text(60, 130, 'V', 18, 'serif')));
  },
  flowchart: (r) => {
    const boxes = 3 + Math.floor(r() * 2);
    let body = '';
    let words = '';
    for (let i = 0; i < boxes; i++) {
      const y = 20 + i * (260 / boxes);
      body += `<rect x="130" y="${y.toFixed(1)}" width="140" height="36" rx="${r() < 0.5 ? 0 : 10}"/>`;
      if (i < boxes - 1)
        body +=
          line(200, y + 36, 200, y + 260 / boxes) +
          `<polyline points="194,${(y + 260 / boxes - 8).toFixed(1)} 200,${(y + 260 / boxes).toFixed(1)} 206,${(y + 260 / boxes - 8).toFixed(1)}"/>`;
      words += text(140, y + 24, ['Start', 'Read N', 'Add OH', 'Stop', 'Heat'][i % 5]!);
    }
    return svg(body + labels(words));
  },
};

/** The SVG of distractor `i` of one kind (same i, same drawing). */
export function distractorSvg(kind: DistractorKind, i: number): string {
  return GENERATORS[kind](seeded(1000 * DISTRACTOR_KINDS.indexOf(kind) + i + 1));
}
