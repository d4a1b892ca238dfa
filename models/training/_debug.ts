import { Resvg } from '@resvg/resvg-js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import { connectedComponents } from '../../worker/engine/math/image/components.js';
import { mergeComponents } from '../../worker/engine/math/image/merge.js';
import { strokeWidth } from '../../worker/engine/math/image/shape.js';
import { grayFromRgba } from './dataset.js';
import { renderTexSvg, type MathJaxFontName } from './render-mathjax.js';
const toks = process.argv.slice(2);
let t = { svg: 0, raster: 0, pipe: 0 };
for (const font of ['newcm', 'stix2', 'tex', 'modern', 'termes'] as MathJaxFontName[]) for (const tex of toks) for (const emPx of [16, 24, 40]) {
  let t0 = performance.now();
  const svg = await renderTexSvg(tex, font, { emPx });
  t.svg += performance.now() - t0; t0 = performance.now();
  const r = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
  const img = grayFromRgba(r.pixels, r.width, r.height);
  t.raster += performance.now() - t0; t0 = performance.now();
  const map = connectedComponents(binarise(img));
  const groups = mergeComponents(map);
  t.pipe += performance.now() - t0;
  if (groups.length > 1) console.log(font, tex, emPx, 'sw', strokeWidth(map), groups.map((g) => g.parts.map((c) => `${c.box.x0},${c.box.y0}-${c.box.x1},${c.box.y1}:${c.area}`).join('+')).join(' | '));
}
console.log(t);
