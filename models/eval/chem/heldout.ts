import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { compileLatex } from '../../../test/support/latex-pdf.js';
import { seeded } from './distractors.js';

/**
 * Held-out distractors: figures made after the acceptance rule of worker/chemistry/structures.ts
 * was fixed, by programs the rule never saw (distractors.ts draws SVG by hand; these come from
 * gnuplot, Graphviz and LaTeX's own picture environment, with their fonts, line caps and
 * anti-aliasing). They are only scored, never looked at to set a threshold. Kinds:
 * - gnuplot: function plots with keys and axis labels, bar charts with error bars, polar and
 *   parametric curves, wire-frame surfaces;
 * - Graphviz: flow charts (dot), letter-labelled graphs (neato, the nearest thing to a molecule a
 *   mathematics paper draws), trees and state machines (circo);
 * - LaTeX picture: geometry (triangles with altitudes, lettered vertices) and block diagrams.
 */

const run = promisify(execFile);

export const HELDOUT_KINDS = [
  'gnuplot-functions',
  'gnuplot-bars',
  'gnuplot-polar',
  'gnuplot-surface',
  'dot-flowchart',
  'neato-graph',
  'dot-tree',
  'circo-automaton',
  'latex-geometry',
  'latex-blocks',
] as const;
export type HeldoutKind = (typeof HELDOUT_KINDS)[number];

/** Figure size, inches: a typical single-column figure. */
const [W_IN, H_IN] = [4, 3];
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const WORDS = ['Start', 'Read input', 'N > 0?', 'Add OH', 'Heat', 'Filter', 'Wash', 'Dry', 'Yield', 'Stop', 'Cool', 'Analyse'];
const LETTERS = 'ABCDEFGHNOPQRSTUVXYZ';

function gnuplotScript(kind: HeldoutKind, r: () => number): string {
  const xlabel = pick(r, ['t / s', 'Temperature (K)', 'x', 'c (mol/L)', 'N']);
  const ylabel = pick(r, ['Absorbance', 'y', 'Rate', 'OH', 'Yield (%)']);
  const head = `set xlabel "${xlabel}"\nset ylabel "${ylabel}"\n${r() < 0.5 ? 'set grid\n' : ''}`;
  if (kind === 'gnuplot-functions') {
    const fns = ['sin(x)', 'cos(2*x)*exp(-x/5)', 'x**2/20-1', 'tanh(x-3)', 'log(1+abs(x))', '1/(1+exp(-x))'];
    const n = 1 + Math.floor(r() * 3);
    const plots = Array.from(
      { length: n },
      (_, i) => `(${pick(r, fns)})*${(0.5 + r()).toFixed(2)} title "${pick(r, ['NH3', 'OH-', 'model', 'fit', 'A', 'B'])}${i}" lw 2`,
    );
    return `${head}set xrange [0:${(5 + r() * 10).toFixed(1)}]\nplot ${plots.join(', ')}`;
  }
  if (kind === 'gnuplot-bars') {
    const rows = Array.from({ length: 4 + Math.floor(r() * 4) }, (_, i) => `${i} ${(2 + r() * 8).toFixed(2)} ${(0.2 + r()).toFixed(2)}`).join('\n');
    return `${head}set style fill ${r() < 0.5 ? 'empty' : 'solid 0.3'} border\nset boxwidth 0.6\nset yrange [0:*]\n$d << EOD\n${rows}\nEOD\nplot $d using 1:2 with boxes notitle, $d using 1:2:3 with yerrorbars notitle lw 1.5`;
  }
  if (kind === 'gnuplot-polar') {
    const k = 2 + Math.floor(r() * 5);
    return r() < 0.5
      ? `set polar\nset size square\nunset xtics\nunset ytics\nset grid polar\nset xlabel "θ"\nplot cos(${k}*t) title "r = cos(${k}θ)" lw 2`
      : `set parametric\nset size square\nset trange [0:2*pi]\nplot sin(${k}*t), cos(${k + 1}*t) title "Lissajous" lw 2`;
  }
  const iso = 8 + Math.floor(r() * 12);
  return `set isosamples ${iso}\nset hidden3d\nset xlabel "x"\nset ylabel "y"\nsplot ${pick(r, ['sin(x)*cos(y)', 'x*y/10', 'exp(-(x*x+y*y)/10)', 'x**2-y**2'])} notitle`;
}

function dotSource(kind: HeldoutKind, r: () => number): { engine: string; source: string } {
  if (kind === 'dot-flowchart') {
    const n = 4 + Math.floor(r() * 4);
    const nodes = Array.from(
      { length: n },
      (_, i) => `n${i} [label="${pick(r, WORDS)}" shape=${i === 0 || i === n - 1 ? 'ellipse' : r() < 0.3 ? 'diamond' : 'box'}];`,
    );
    const edges = Array.from({ length: n - 1 }, (_, i) => `n${i} -> n${i + 1};`);
    if (r() < 0.6) edges.push(`n${n - 2} -> n${Math.floor(r() * (n - 2))} [label="no"];`);
    return { engine: 'dot', source: `digraph G { node [fontname="Helvetica"]; ${nodes.join(' ')} ${edges.join(' ')} }` };
  }
  if (kind === 'neato-graph') {
    const n = 5 + Math.floor(r() * 6);
    const nodes = Array.from({ length: n }, (_, i) => `v${i} [label="${LETTERS[Math.floor(r() * LETTERS.length)]}"];`);
    const edges = new Set<string>();
    for (let i = 1; i < n; i++) edges.add(`v${Math.floor(r() * i)} -- v${i};`);
    for (let k = 0; k < n / 2; k++) {
      const [a, b] = [Math.floor(r() * n), Math.floor(r() * n)];
      if (a !== b) edges.add(`v${Math.min(a, b)} -- v${Math.max(a, b)};`);
    }
    const shape = pick(r, ['circle', 'plaintext', 'point']);
    return { engine: 'neato', source: `graph G { node [shape=${shape} fontname="Times"]; ${nodes.join(' ')} ${[...edges].join(' ')} }` };
  }
  if (kind === 'dot-tree') {
    const n = 6 + Math.floor(r() * 8);
    const nodes = Array.from({ length: n }, (_, i) => `t${i} [label="${Math.floor(r() * 100)}"];`);
    const edges = Array.from({ length: n - 1 }, (_, i) => `t${Math.floor(i / 2)} -> t${i + 1};`);
    return { engine: 'dot', source: `digraph T { node [shape=circle]; edge [arrowhead=none]; ${nodes.join(' ')} ${edges.join(' ')} }` };
  }
  const n = 3 + Math.floor(r() * 4);
  const nodes = Array.from({ length: n }, (_, i) => `q${i} [shape=${i === n - 1 ? 'doublecircle' : 'circle'}];`);
  const edges = Array.from({ length: n + 2 }, () => `q${Math.floor(r() * n)} -> q${Math.floor(r() * n)} [label="${pick(r, ['a', 'b', '0', '1', 'ε'])}"];`);
  return { engine: 'circo', source: `digraph A { rankdir=LR; ${nodes.join(' ')} ${edges.join(' ')} }` };
}

/** One LaTeX picture-environment figure (unit 1 mm), on its own page. */
function latexPicture(kind: HeldoutKind, r: () => number): string {
  if (kind === 'latex-geometry') {
    // Slopes the picture environment draws: small integer pairs. Apex (b, b), base from 0 to b + k b.
    const [b, k] = [20 + Math.floor(r() * 15), 1 + Math.floor(r() * 3)];
    const a = b + k * b;
    const names = pick(r, [
      ['A', 'B', 'C', 'H'],
      ['O', 'N', 'P', 'H'],
      ['P', 'Q', 'R', 'S'],
    ]);
    return `\\setlength{\\unitlength}{1mm}\\begin{picture}(${a + 10},${b + 10})\\thicklines
\\put(0,0){\\line(1,0){${a}}}\\put(0,0){\\line(1,1){${b}}}\\put(${b},${b}){\\line(${k},-1){${k * b}}}
\\put(${b},0){\\line(0,1){${b}}}\\put(${b},0){\\framebox(2,2){}}
\\put(-4,-3){$${names[0]}$}\\put(${a + 1},-3){$${names[1]}$}\\put(${b - 1},${b + 2}){$${names[2]}$}\\put(${b - 1},-5){$${names[3]}$}
${r() < 0.5 ? `\\put(${b / 2},${b / 2 + 4}){$c$}\\put(${b + (k * b) / 2 + 1},${b / 2}){$a$}` : ''}\\end{picture}`;
  }
  const n = 2 + Math.floor(r() * 3);
  let body = '';
  for (let i = 0; i < n; i++) {
    body += `\\put(${i * 32},10){\\framebox(22,10){${pick(r, ['$G(s)$', '$H$', 'ADC', 'Filter', '$K_p$', '$\\Sigma$'])}}}`;
    if (i < n - 1) body += `\\put(${i * 32 + 22},15){\\vector(1,0){10}}`;
  }
  body += `\\put(${(n - 1) * 32 + 11},10){\\line(0,-1){8}}\\put(${(n - 1) * 32 + 11},2){\\line(-1,0){${(n - 1) * 32}}}\\put(11,2){\\vector(0,1){8}}`;
  return `\\setlength{\\unitlength}{1mm}\\begin{picture}(${n * 32},25)\\thicklines${body}\\end{picture}`;
}

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

/** Renders the held-out distractors not yet in `dir`; returns their paths by kind. */
export async function renderHeldout(dir: string, perKind: number, dpi: number): Promise<{ path: string; kind: HeldoutKind }[]> {
  const out: { path: string; kind: HeldoutKind }[] = [];
  const kindDir = join(dir, `heldout-${dpi}`);
  await mkdir(kindDir, { recursive: true });
  for (const [k, kind] of HELDOUT_KINDS.entries()) {
    const paths = Array.from({ length: perKind }, (_, i) => join(kindDir, `${kind}-${i}.png`));
    const missing = [];
    for (const [i, p] of paths.entries()) if (!(await exists(p))) missing.push(i);
    const rand = (i: number) => seeded(777_000 + 1000 * k + i);
    if (missing.length && kind.startsWith('gnuplot')) {
      for (const i of missing) {
        const term = `set terminal pngcairo size ${W_IN * dpi},${H_IN * dpi} font "Sans,${Math.round((9 * dpi) / 100)}" linewidth ${(dpi / 100).toFixed(1)}\nset output "${paths[i]}"\n`;
        await writeFile(`${paths[i]}.gp`, term + gnuplotScript(kind, rand(i)));
        await run('gnuplot', [`${paths[i]}.gp`]);
        await rm(`${paths[i]}.gp`);
      }
    } else if (missing.length && kind.startsWith('latex')) {
      const pdf = await compileLatex(missing.map((i) => latexPicture(kind, rand(i))).join('\n\\newpage\n'), { packages: 'amsmath' });
      try {
        await run('pdftoppm', ['-r', String(dpi), '-png', pdf.path, join(pdf.dir, 'p')]);
        const pages = (await readdir(pdf.dir)).filter((f) => /^p-\d+\.png$/.test(f)).sort();
        for (const [j, i] of missing.entries())
          await sharp(join(pdf.dir, pages[j]!)).trim().extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' }).png().toFile(paths[i]!);
      } finally {
        await pdf.cleanup();
      }
    } else if (missing.length) {
      for (const i of missing) {
        const { engine, source } = dotSource(kind, rand(i));
        const tmp = `${paths[i]}.gv`;
        await writeFile(tmp, source);
        await run(engine, [`-Gdpi=${dpi}`, '-Tpng', '-o', paths[i]!, tmp]);
        await rm(tmp);
      }
    }
    for (const path of paths) out.push({ path, kind });
  }
  return out;
}
