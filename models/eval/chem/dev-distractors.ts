import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { seeded } from './distractors.js';

/**
 * Development distractors: figures for setting the chemistry detection rule, made by programs and
 * in styles that neither distractors.ts nor the held-out set (heldout.ts) use, so the held-out set
 * stays a fair final measure. groff's pic draws flow charts (boxes, ellipses, circles, arrows,
 * words), block diagrams with summing junctions and letter-labelled graphs of circled nodes;
 * SVG in other styles draws UML class boxes, mind maps with rounded boxes, organisation charts with
 * elbow connectors and network diagrams (serif fonts, other line widths).
 */

export const DEV_KINDS = ['pic-flowchart', 'pic-blocks', 'pic-graph', 'svg-uml', 'svg-mindmap', 'svg-orgchart', 'svg-network'] as const;
export type DevKind = (typeof DEV_KINDS)[number];

const run = promisify(execFile);
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const STEPS = [
  'Weigh sample',
  'Add NaOH',
  'pH < 7?',
  'Extract',
  'Dissolve in EtOH',
  'Centrifuge',
  'Report',
  'Purify',
  'HPLC',
  'NMR',
  'Store at 4 C',
  'Titrate',
  'Reflux 2 h',
  'Done',
  'Begin',
  'OK?',
];
const NAMES = ['Client', 'Server', 'Order', 'Invoice', 'Sensor', 'Database', 'Cache', 'Queue', 'Parser', 'Router', 'User', 'Admin'];

function picSource(kind: DevKind, r: () => number): string {
  if (kind === 'pic-flowchart') {
    const dir = r() < 0.5 ? 'right' : 'down';
    const n = 3 + Math.floor(r() * 4);
    const shapes = Array.from({ length: n }, (_, i) => {
      const shape = i === 0 || i === n - 1 ? pick(r, ['ellipse', 'circle', 'box rad 0.1']) : pick(r, ['box', 'box', 'box wid 1.1', 'ellipse wid 1.1']);
      return `${shape} "${pick(r, STEPS)}"`;
    });
    return `${dir}\n${shapes.join('\narrow\n')}`;
  }
  if (kind === 'pic-blocks') {
    const n = 2 + Math.floor(r() * 3);
    let body = 'right\nS: circle rad 0.12 "+"\narrow\n';
    for (let i = 0; i < n; i++) body += `B${i}: box wid 0.6 ht 0.4 "${pick(r, ['G1', 'K', 'H(s)', '1/s', 'C', 'P', 'F'])}"\n${i < n - 1 ? 'arrow\n' : ''}`;
    body += `arrow right 0.4\nline from B${n - 1}.e + (0.2,0) down 0.6 then to S.s - (0,0.48) then to S.s ->\n"-" at S.s + (0.1,-0.15)\n`;
    return body;
  }
  // A graph of circled letters joined by lines at free angles: the nearest pic comes to a molecule.
  const n = 4 + Math.floor(r() * 5);
  let body = '';
  const pts = Array.from({ length: n }, () => [r() * 3, r() * 2] as const);
  for (const [i, [x, y]] of pts.entries())
    body += `V${i}: circle rad 0.15 "${pick(r, ['A', 'B', 'C', 'N', 'O', 'u', 'v', 'x', '1', '2'])}" at (${x.toFixed(2)},${y.toFixed(2)})\n`;
  for (let i = 1; i < n; i++) body += `line from V${Math.floor(r() * i)} to V${i} chop\n`;
  return body;
}

const svg = (body: string, w: number, h: number, font: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="${font}"><rect width="${w}" height="${h}" fill="white"/>${body}</svg>`;
const box = (x: number, y: number, w: number, h: number, rx: number, sw: number) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="none" stroke="black" stroke-width="${sw}"/>`;
const words = (x: number, y: number, s: string, size: number, anchor = 'middle') =>
  `<text x="${x}" y="${y}" font-size="${size}" text-anchor="${anchor}" fill="black">${s.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`;
const path = (d: string, sw: number) => `<path d="${d}" fill="none" stroke="black" stroke-width="${sw}"/>`;

function devSvg(kind: DevKind, r: () => number): string {
  const sw = pick(r, [1, 1.5, 2.2]);
  const font = pick(r, ['serif', 'DejaVu Sans', 'monospace']);
  if (kind === 'svg-uml') {
    let body = '';
    const n = 2 + Math.floor(r() * 2);
    for (let i = 0; i < n; i++) {
      const [x, y] = [20 + i * 150, 20 + r() * 60];
      const fields = 2 + Math.floor(r() * 3);
      const h = 30 + fields * 16 + 20;
      body +=
        box(x, y, 120, h, 0, sw) + path(`M${x} ${y + 26}H${x + 120}M${x} ${y + 30 + fields * 16}H${x + 120}`, sw) + words(x + 60, y + 18, pick(r, NAMES), 13);
      for (let f = 0; f < fields; f++)
        body += words(
          x + 6,
          y + 44 + f * 16,
          `${pick(r, ['+', '-', '#'])} ${pick(r, ['id', 'name', 'total', 'n', 'next'])}: ${pick(r, ['int', 'str', 'Node'])}`,
          11,
          'start',
        );
      if (i > 0) body += path(`M${x - 30} ${y + 40}H${x}`, sw);
    }
    return svg(body, 40 + n * 150, 240, font);
  }
  if (kind === 'svg-mindmap') {
    const [cx, cy] = [220, 150];
    let body = `<ellipse cx="${cx}" cy="${cy}" rx="60" ry="28" fill="none" stroke="black" stroke-width="${sw}"/>${words(cx, cy + 5, pick(r, ['Project', 'Synthesis', 'Ideas']), 15)}`;
    const n = 3 + Math.floor(r() * 4);
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n + r() * 0.4;
      const [x, y] = [cx + Math.cos(a) * 150, cy + Math.sin(a) * 100];
      body +=
        path(`M${cx + Math.cos(a) * 60} ${cy + Math.sin(a) * 28}L${x} ${y}`, sw) + box(x - 45, y - 14, 90, 28, 10, sw) + words(x, y + 5, pick(r, STEPS), 12);
    }
    return svg(body, 440, 300, font);
  }
  if (kind === 'svg-orgchart') {
    let body = box(160, 10, 120, 34, 4, sw) + words(220, 32, pick(r, NAMES), 13);
    const n = 2 + Math.floor(r() * 3);
    body += path(`M220 44V64`, sw);
    for (let i = 0; i < n; i++) {
      const x = 20 + i * (400 / n) + 200 / n - 50;
      body += path(`M220 64H${x + 50}V84`, sw) + box(x, 84, 100, 30, 4, sw) + words(x + 50, 104, pick(r, NAMES), 12);
      if (r() < 0.6) body += path(`M${x + 50} 114V140`, sw) + box(x + 5, 140, 90, 28, 4, sw) + words(x + 50, 159, pick(r, STEPS), 11);
    }
    return svg(body, 440, 190, font);
  }
  // Network: labelled boxes joined by lines at free angles.
  const n = 4 + Math.floor(r() * 4);
  const pts = Array.from({ length: n }, () => [40 + r() * 340, 30 + r() * 220] as const);
  let body = '';
  for (let i = 1; i < n; i++) {
    const [a, b] = [pts[Math.floor(r() * i)]!, pts[i]!];
    body += path(`M${a[0]} ${a[1]}L${b[0]} ${b[1]}`, sw);
  }
  for (const [x, y] of pts)
    body += `<rect x="${x - 32}" y="${y - 12}" width="64" height="24" fill="white" stroke="black" stroke-width="${sw}"/>` + words(x, y + 5, pick(r, NAMES), 11);
  return svg(body, 420, 290, font);
}

async function exists(p: string): Promise<boolean> {
  return readFile(p).then(
    () => true,
    () => false,
  );
}

/** Renders the development distractors not yet in `dir` (seeded); returns their paths by kind. */
export async function renderDevDistractors(dir: string, perKind: number, dpi: number): Promise<{ path: string; kind: DevKind }[]> {
  const out: { path: string; kind: DevKind }[] = [];
  const kindDir = join(dir, `dev-${dpi}`);
  await mkdir(kindDir, { recursive: true });
  for (const [k, kind] of DEV_KINDS.entries()) {
    for (let i = 0; i < perKind; i++) {
      const file = join(kindDir, `${kind}-${i}.png`);
      out.push({ path: file, kind });
      if (await exists(file)) continue;
      const r = seeded(913_000 + 1000 * k + i);
      if (kind.startsWith('pic')) {
        await writeFile(`${file}.pic`, `.PS\n${picSource(kind, r)}\n.PE\n`);
        const { stdout } = await run('groff', ['-p', '-Tps', `${file}.pic`], { maxBuffer: 1 << 24 });
        await writeFile(`${file}.ps`, stdout);
        const aa = ['-dTextAlphaBits=4', '-dGraphicsAlphaBits=4'];
        await run('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pnggray', ...aa, `-r${dpi}`, `-sOutputFile=${file}.full.png`, `${file}.ps`]);
        const pad = Math.round(dpi / 8);
        await sharp(`${file}.full.png`).trim().extend({ top: pad, bottom: pad, left: pad, right: pad, background: '#ffffff' }).png().toFile(file);
        await Promise.all(['.pic', '.ps', '.full.png'].map((s) => rm(`${file}${s}`)));
      } else {
        await sharp(Buffer.from(devSvg(kind, r)), { density: (dpi * 72) / 96 })
          .flatten({ background: '#ffffff' })
          .png()
          .toFile(file);
      }
    }
  }
  return out;
}
