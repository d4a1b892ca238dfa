import { Resvg } from '@resvg/resvg-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderTexSvg, type MathJaxFontName } from '../../../../models/training/render-mathjax.js';
import { parseLayout } from '../layout/index.js';
import type { GrayImage } from '../types.js';
import { binarise } from './binarise.js';
import { SymbolClassifier } from './classifier.js';
import { connectedComponents } from './components.js';
import { stemWidth } from './stroke-weight.js';
import { symbolsFromImage } from './symbols-from-image.js';

/** A formula typeset by MathJax and rasterised by resvg: another renderer than the pdflatex renders the stem table was fitted on. */
async function formula(tex: string, emPx: number, font: MathJaxFontName): Promise<GrayImage> {
  const svg = await renderTexSvg(tex, font, { emPx });
  const rendered = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } }).render();
  const data = new Uint8Array(rendered.width * rendered.height);
  for (let i = 0; i < data.length; i++) data[i] = rendered.pixels[4 * i + 1]!;
  return { data, width: rendered.width, height: rendered.height };
}

/** A white image with a dark vertical bar `width` pixels wide (a fractional width greys its right column). */
function bar(width: number): GrayImage {
  const w = 20;
  const h = 30;
  const data = new Uint8Array(w * h).fill(255);
  for (let y = 5; y < 25; y++) {
    for (let x = 5; x < 5 + Math.ceil(width); x++) data[y * w + x] = x < 5 + Math.floor(width) ? 0 : Math.round(255 * (1 - (width % 1)));
  }
  return { data, width: w, height: h };
}

/** The image with every stroke a pixel wider: each pixel as dark as the darker of itself and its right neighbour. */
function heavier(image: GrayImage): GrayImage {
  const data = new Uint8Array(image.data);
  for (let i = 0; i < data.length; i++) if ((i + 1) % image.width) data[i] = Math.min(image.data[i]!, image.data[i + 1]!);
  return { ...image, data };
}

describe('stemWidth', () => {
  it('measures a stroke to a fraction of a pixel from its grey edge', () => {
    for (const width of [1.5, 2, 2.5, 3.5]) {
      const image = bar(width);
      const map = connectedComponents(binarise(image));
      const group = { parts: map.components, box: map.components[0]!.box, rule: false };
      expect(stemWidth(image, map, group)).toBeCloseTo(width, 1);
    }
  });
});

describe('bold letters read from their stroke weight', () => {
  let classifier: SymbolClassifier;
  beforeAll(async () => {
    classifier = await SymbolClassifier.load({ intraOpThreads: 1 });
  });
  const bold = async (tex: string, emPx: number, font: MathJaxFontName) =>
    (await symbolsFromImage(await formula(tex, emPx, font), { classifier })).filter((s) => s.style === 'bold' || s.style === 'bold-italic').map((s) => s.latex);

  for (const font of ['tex', 'newcm', 'modern'] as MathJaxFontName[]) {
    for (const emPx of [21, 42]) {
      it(`marks \\mathbf letters bold and leaves their regular neighbours (${font}, ${emPx} px to the em)`, async () => {
        expect(await bold('\\mathbf{F}=m\\mathbf{a}', emPx, font)).toEqual(['F', 'a']);
        expect(await bold('\\mathbf{p}\\cdot\\mathbf{q}=0', emPx, font)).toEqual(['p', 'q']);
      });

      it(`reads no bold in regular formulas, scripts included (${font}, ${emPx} px to the em)`, async () => {
        for (const tex of ['F=ma', 'E=mc^{2}', 'R_{ij}=\\sum_{k}g_{ik}h_{kj}', '\\mathrm{rank}(M)=n']) expect(await bold(tex, emPx, font)).toEqual([]);
      });
    }
  }

  it('reads no bold in a formula set heavier throughout (a heavier font, a darker scan)', async () => {
    for (const tex of ['Answer=f(bold)', 'x+y=z', 'abc=d']) {
      const image = heavier(await formula(tex, 42, 'tex'));
      const symbols = await symbolsFromImage(image, { classifier });
      expect(symbols.filter((s) => s.style === 'bold' || s.style === 'bold-italic').map((s) => s.latex)).toEqual([]);
    }
  });

  it('writes them as \\mathbf in the LaTeX', async () => {
    const symbols = await symbolsFromImage(await formula('\\mathbf{v}=\\lambda\\mathbf{e}', 21, 'tex'), { classifier });
    expect(parseLayout(symbols).latex).toBe('\\mathbf{v}=\\lambda\\mathbf{e}');
  });

  it('reads none where the caller turns it off', async () => {
    const image = await formula('\\mathbf{F}=m\\mathbf{a}', 21, 'tex');
    const off = await symbolsFromImage(image, { classifier, stems: false });
    expect(off.filter((s) => s.style === 'bold')).toEqual([]);
  });
});
