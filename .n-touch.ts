// scratch (helper N): do glyphs touch in a MathJax render?
import { Resvg } from '@resvg/resvg-js';
import { renderTexSvg } from './models/training/render-mathjax.js';
import { grayFromRgba } from './models/training/dataset.js';
import { binarise } from './worker/engine/math/image/binarise.js';
import { connectedComponents } from './worker/engine/math/image/components.js';
import { mergeComponents } from './worker/engine/math/image/merge.js';
for (const [tex, em] of [['d\\mkern-3.5mu x', 24], ['d\\mkern-2mu x', 24], ['d\\mkern-3.5mu x', 36]] as const) {
  const svg = await renderTexSvg(tex, 'tex', { emPx: em });
  const r = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
  const g = mergeComponents(connectedComponents(binarise(grayFromRgba(r.pixels, r.width, r.height))));
  console.log(tex, em, g.length, g.map((x) => JSON.stringify(x.box)).join(' '));
}
