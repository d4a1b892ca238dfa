import { Resvg } from '@resvg/resvg-js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import { connectedComponents } from '../../worker/engine/math/image/components.js';
import { mergeComponents } from '../../worker/engine/math/image/merge.js';
import { grayFromRgba } from './dataset.js';
import { renderTexSvg } from './render-mathjax.js';
for (const tex of ['\\sum \\alpha \\sqrt{y}', '\\sqrt{x^2+y}', '\\sum_{i=1}^{n} \\alpha_i x^2 + \\frac{\\beta}{y} \\leq 42 \\pi', 'f(x) = \\int_0^1 \\frac{e^{-t}}{t!} dt \\div 3 \\% \\equiv \\Theta']) for (const emPx of [20, 36]) {
  const r = new Resvg(await renderTexSvg(tex, 'tex', { emPx }), { background: 'white', font: { loadSystemFonts: false } }).render();
  const groups = mergeComponents(connectedComponents(binarise(grayFromRgba(r.pixels, r.width, r.height))));
  console.log(tex, emPx, groups.length, groups.map((g) => (g.rule ? 'RULE' : g.parts.length) + `@${g.box.x0},${g.box.y0}-${g.box.x1},${g.box.y1}`).join(' '));
}
