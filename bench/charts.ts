/**
 * Small SVG charts for bench/RESULTS.md, rendered to PNG with resvg. Hand-written: two chart
 * kinds are all the report needs, and a plotting library would outweigh them.
 */
import { Resvg } from '@resvg/resvg-js';

const W = 560;
const H = 300;
const M = { left: 64, right: 16, top: 56, bottom: 48 };
const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const text = (x: number, y: number, s: string, extra = '') => `<text x="${x}" y="${y}" ${extra}>${esc(s)}</text>`;

/** Round numbers for an axis from 0 to at least `max`. */
function ticks(max: number): number[] {
  const raw = max / 4 || 1;
  const step = [1, 2, 2.5, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw)!;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => Math.round(i * step * 1e6) / 1e6);
}

function frame(
  title: string,
  yLabel: string,
  yMax: number,
  xLabels: { x: number; label: string }[],
  xLabel: string,
): { svg: string[]; y: (v: number) => number } {
  const ys = ticks(yMax);
  const top = ys.at(-1)!;
  const y = (v: number) => M.top + (H - M.top - M.bottom) * (1 - v / top);
  const svg = [
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    text(W / 2, 22, title, 'text-anchor="middle" font-size="15" font-weight="bold"'),
    text(14, H / 2, yLabel, `transform="rotate(-90 14 ${H / 2})" text-anchor="middle" font-size="12"`),
    text((M.left + W - M.right) / 2, H - 10, xLabel, 'text-anchor="middle" font-size="12"'),
  ];
  for (const v of ys) {
    svg.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e7eb"/>`);
    svg.push(text(M.left - 6, y(v) + 4, String(v), 'text-anchor="end" font-size="11"'));
  }
  for (const l of xLabels) svg.push(text(l.x, H - M.bottom + 16, l.label, 'text-anchor="middle" font-size="11"'));
  svg.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(0)}" y2="${y(0)}" stroke="#374151"/>`);
  return { svg, y };
}

function legend(names: string[]): string[] {
  return names.map(
    (n, i) =>
      `<rect x="${M.left + 8 + i * 150}" y="${M.top - 24}" width="10" height="10" fill="${COLOURS[i]}"/>` +
      text(M.left + 22 + i * 150, M.top - 15, n, 'font-size="11"'),
  );
}

const wrap = (parts: string[]) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans">${parts.join('')}</svg>`;

/** Lines over categorical x values (e.g. client counts), one per series. */
export function lineChart(opts: { title: string; xLabel: string; yLabel: string; x: number[]; series: { name: string; values: number[] }[] }): string {
  const max = Math.max(...opts.series.flatMap((s) => s.values));
  const px = (i: number) => M.left + 20 + ((W - M.left - M.right - 40) * i) / Math.max(1, opts.x.length - 1);
  const { svg, y } = frame(
    opts.title,
    opts.yLabel,
    max,
    opts.x.map((v, i) => ({ x: px(i), label: String(v) })),
    opts.xLabel,
  );
  opts.series.forEach((s, k) => {
    svg.push(`<polyline fill="none" stroke="${COLOURS[k]}" stroke-width="2" points="${s.values.map((v, i) => `${px(i)},${y(v)}`).join(' ')}"/>`);
    for (const [i, v] of s.values.entries()) svg.push(`<circle cx="${px(i)}" cy="${y(v)}" r="3" fill="${COLOURS[k]}"/>`);
  });
  return wrap([...svg, ...legend(opts.series.map((s) => s.name))]);
}

/** Grouped bars: one group per category, one bar per series, values printed on top. */
export function barChart(opts: { title: string; yLabel: string; categories: string[]; series: { name: string; values: number[] }[] }): string {
  const max = Math.max(...opts.series.flatMap((s) => s.values));
  const groupW = (W - M.left - M.right) / opts.categories.length;
  const barW = Math.min(60, (groupW * 0.7) / opts.series.length);
  const centre = (g: number) => M.left + groupW * (g + 0.5);
  const { svg, y } = frame(
    opts.title,
    opts.yLabel,
    max,
    opts.categories.map((c, g) => ({ x: centre(g), label: c })),
    '',
  );
  opts.series.forEach((s, k) => {
    for (const [g, v] of s.values.entries()) {
      const x = centre(g) - (barW * opts.series.length) / 2 + k * barW;
      svg.push(`<rect x="${x}" y="${y(v)}" width="${barW - 4}" height="${y(0) - y(v)}" fill="${COLOURS[k]}"/>`);
      svg.push(text(x + (barW - 4) / 2, y(v) - 4, String(v), 'text-anchor="middle" font-size="10"'));
    }
  });
  return wrap([...svg, ...(opts.series.length > 1 ? legend(opts.series.map((s) => s.name)) : [])]);
}

/** PNG bytes of an SVG, with the system's fonts (fonts-dejavu). */
export function toPng(svg: string): Buffer {
  return new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
}
