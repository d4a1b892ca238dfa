import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from './dom.js';

const INK = '#1f2933';
const GRID = '#d9dee3';
const ACCENT = '#0b5cad';

export interface Chart {
  el: HTMLElement;
  set(x: number[], y: number[]): void;
  destroy(): void;
}

/**
 * A chart in a <figure>: the canvas is hidden from assistive technology and the caption says what it
 * shows; every chart in the console sits beside a table or a figure in text with the same numbers.
 */
function chart(caption: string, opts: { bars: boolean; yLabel: string; xIsDay: boolean; height: number }): Chart {
  const box = h('div', { class: 'chart-box', 'aria-hidden': 'true' });
  const el = h('figure', { class: 'chart' }, box, h('figcaption', null, caption));
  let plot: uPlot | null = null;
  let data: uPlot.AlignedData = [[], []];
  const width = () => Math.max(280, Math.floor(box.clientWidth || 600));

  const make = () => {
    const series: uPlot.Series = {
      label: opts.yLabel,
      stroke: ACCENT,
      width: 2,
      fill: opts.bars ? ACCENT : 'rgba(11,92,173,0.12)',
      points: { show: !opts.bars && data[0].length < 2 },
      ...(opts.bars ? { paths: uPlot.paths.bars!({ size: [0.7, 48] }) } : {}),
    };
    const axis = { stroke: INK, grid: { stroke: GRID, width: 1 }, ticks: { stroke: GRID } };
    plot = new uPlot(
      {
        width: width(),
        height: opts.height,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          // At least a minute of time (a single sample otherwise spans years); bars get half a day of margin.
          x: { time: true, range: (_u, min, max) => xRange(min, max, opts.xIsDay) },
          y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
        },
        axes: [
          { ...axis, ...(opts.xIsDay ? { values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toISOString().slice(5, 10)) } : {}) },
          { ...axis, label: opts.yLabel, labelSize: 20, size: 56 },
        ],
        series: [{}, series],
      },
      data,
      box,
    );
  };
  const observer = new ResizeObserver(() => plot?.setSize({ width: width(), height: opts.height }));
  observer.observe(box);

  return {
    el,
    set(x, y) {
      data = [x, y];
      // uPlot reads the container width once; build on first data, when the figure is in the page.
      if (!plot) make();
      else plot.setData(data);
    },
    destroy() {
      observer.disconnect();
      plot?.destroy();
    },
  };
}

function xRange(min: number | null, max: number | null, days: boolean): uPlot.Range.MinMax {
  const now = Date.now() / 1000;
  if (min === null || max === null) return [now - 60, now];
  if (days) return [min - 43_200, max + 43_200];
  return [Math.min(min, max - 60), max];
}

export const lineChart = (caption: string, yLabel: string) => chart(caption, { bars: false, yLabel, xIsDay: false, height: 200 });
export const barChart = (caption: string, yLabel: string) => chart(caption, { bars: true, yLabel, xIsDay: true, height: 240 });
