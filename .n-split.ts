// scratch (helper N): how many renders of some tokens the merge step splits
import { Resvg } from '@resvg/resvg-js';
import { cropOfSingleSymbol, grayFromRgba } from './models/training/dataset.js';
import { MATHJAX_FONTS, renderTexSvg, type MathJaxFontName } from './models/training/render-mathjax.js';
import { recipesFor } from './models/training/recipes.js';
for (const token of process.argv.slice(2)) {
  let split = 0, n = 0;
  for (const font of Object.keys(MATHJAX_FONTS) as MathJaxFontName[]) for (const tex of recipesFor(token)) for (const emPx of [14, 20, 30, 45]) {
    const svg = await renderTexSvg(tex, font, { emPx, rotateDeg: 0 });
    const r = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
    const res = cropOfSingleSymbol(grayFromRgba(r.pixels, r.width, r.height), emPx);
    n++; if (res && res.groups > 1) split++;
  }
  console.log(token, split, '/', n);
}
