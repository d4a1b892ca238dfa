import { mathjax } from '@mathjax/src/js/mathjax.js';
import { TeX } from '@mathjax/src/js/input/tex.js';
import { SVG } from '@mathjax/src/js/output/svg.js';
import { liteAdaptor } from '@mathjax/src/js/adaptors/liteAdaptor.js';
import { RegisterHTMLHandler } from '@mathjax/src/js/handlers/html.js';
import '@mathjax/src/js/util/asyncLoad/esm.js';
import '@mathjax/src/js/input/tex/base/BaseConfiguration.js';
import '@mathjax/src/js/input/tex/ams/AmsConfiguration.js';
import { MathJaxNewcmFont } from '@mathjax/mathjax-newcm-font/js/svg.js';
import { MathJaxStix2Font } from '@mathjax/mathjax-stix2-font/js/svg.js';
import { MathJaxTexFont } from '@mathjax/mathjax-tex-font/js/svg.js';
import { MathJaxModernFont } from '@mathjax/mathjax-modern-font/js/svg.js';
import { MathJaxTermesFont } from '@mathjax/mathjax-termes-font/js/svg.js';

/**
 * TeX → standalone SVG with MathJax 4 in node. MathJax picks its output font from the `fontData`
 * class handed to the SVG output jax, so each font family gets its own document; glyph ranges a
 * font splits into dynamic files are loaded on demand through `convertPromise`.
 */

export const MATHJAX_FONTS = {
  newcm: MathJaxNewcmFont,
  stix2: MathJaxStix2Font,
  tex: MathJaxTexFont,
  modern: MathJaxModernFont,
  termes: MathJaxTermesFont,
} as const;
export type MathJaxFontName = keyof typeof MATHJAX_FONTS;

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);

/** Inline-style TeX → SVG markup (display style, where wanted, comes from `\displaystyle` in the recipe). */
type Converter = (tex: string) => Promise<string>;
const converters = new Map<MathJaxFontName, Converter>();

function converter(font: MathJaxFontName): Converter {
  let convert = converters.get(font);
  if (!convert) {
    const doc = mathjax.document('', {
      InputJax: new TeX({ packages: ['base', 'ams'] }),
      OutputJax: new SVG({
        fontData: MATHJAX_FONTS[font],
        // The stix2 font package names a dynamic-file folder without its `js/` segment, which node cannot load.
        dynamicPrefix: `@mathjax/mathjax-${font}-font/js/svg/dynamic`,
        fontCache: 'none',
        // MathJax 4 breaks long inline formulas into several <svg> elements by default.
        linebreaks: { inline: false },
      }),
    });
    convert = async (tex) => {
      const node = await doc.convertPromise(tex, { display: false });
      return adaptor.innerHTML(node);
    };
    converters.set(font, convert);
  }
  return convert;
}

export interface RenderOptions {
  /** Pixels per em. */
  emPx: number;
  /** Degrees clockwise about the formula's centre. @default 0 */
  rotateDeg?: number;
  /** White border in pixels. @default 4 */
  marginPx?: number;
}

/**
 * Renders inline-style `tex` to an SVG sized in pixels (MathJax's viewBox is in thousandths of an
 * em), on a white background, optionally rotated: ready for resvg.
 */
export async function renderTexSvg(tex: string, font: MathJaxFontName, opts: RenderOptions): Promise<string> {
  const { emPx, rotateDeg = 0, marginPx = 4 } = opts;
  const svg = await converter(font)(tex);
  if (/data-mjx-error|merror/.test(svg)) throw new Error(`MathJax could not typeset ${tex} with ${font}`);
  const viewBox = /viewBox="([-\d.e]+) ([-\d.e]+) ([-\d.e]+) ([-\d.e]+)"/.exec(svg);
  if (!viewBox) throw new Error(`MathJax produced no viewBox for ${tex}`);
  const [x, y, w, h] = viewBox.slice(1).map(Number);
  // Room for the rotated corners as well as the margin.
  const pad = (marginPx * 1000) / emPx + (Math.abs(Math.sin((rotateDeg * Math.PI) / 180)) * Math.max(w, h)) / 2;
  const box = [x - pad, y - pad, w + 2 * pad, h + 2 * pad];
  const px = (units: number): string => ((units * emPx) / 1000).toFixed(2);
  const open = svg.indexOf('>') + 1;
  const close = svg.lastIndexOf('</svg>');
  const header = `<svg xmlns="http://www.w3.org/2000/svg" width="${px(box[2])}" height="${px(box[3])}" viewBox="${box.join(' ')}">`;
  // data-latex keeps the source verbatim, and a raw '<' in an attribute is not XML that resvg accepts.
  const body = svg.slice(open, close).replace(/ data-latex="[^"]*"/g, '');
  return `${header}<g transform="rotate(${rotateDeg} ${x + w / 2} ${y + h / 2})">${body}</g></svg>`;
}
