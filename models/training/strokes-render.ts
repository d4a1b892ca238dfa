import { Resvg } from '@resvg/resvg-js';
import { binarise } from '../../worker/engine/math/image/binarise.js';
import type { Stroke } from '../../worker/engine/math/types.js';
import { grayFromRgba } from './dataset.js';
import { renderTexSvg, type MathJaxFontName } from './render-mathjax.js';
import { thin, traceSkeleton } from './strokes-skeleton.js';

/** Spurs shorter than this fraction of an em are serifs or blobs at stroke ends, not pen strokes. */
const SPUR_EM = 0.09;

/**
 * TeX typeset by MathJax in `font`, rasterised at `emPx` pixels per em, thinned and traced: the
 * strokes a pen would follow to write it, in pixels of that render (y down).
 */
export async function strokesFromTex(tex: string, font: MathJaxFontName, emPx: number): Promise<Stroke[]> {
  const svg = await renderTexSvg(tex, font, { emPx });
  const rendered = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
  const mask = binarise(grayFromRgba(rendered.pixels, rendered.width, rendered.height));
  return traceSkeleton(thin(mask), mask.width, mask.height, SPUR_EM * emPx);
}
