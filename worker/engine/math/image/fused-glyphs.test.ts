import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { formulaImages } from '../../../../test/support/formula-images.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import { symbolsFromImage } from './symbols-from-image.js';

/**
 * pdflatex and pdftoppm at 150 dpi, as the maths evaluation renders (models/eval/render.ts). The
 * first three have letters the raster fuses into one blob the classifier reads surely as one wrong
 * symbol (`ar` as m, `os` and `ex` as ∞, `an` as an arrow); the last two have sure m's and n's
 * beside letters that must stay whole.
 */
describe('symbolsFromImage: glyphs fused at 150 dpi', () => {
  const fused = ['\\mathrm{Var}(X)=\\sigma^{2}', 'y=\\cos x+\\exp(t)', '\\mathrm{rank}(M)=2'];
  const whole = ['m^{2}+mn=\\lim_{n\\to\\infty}a_{n}', '\\max(a,b)\\geq\\min(a,b)'];
  const images = formulaImages([...fused, ...whole], 'algebra');

  it('cuts fused letters of a known word apart and leaves single letters whole', async () => {
    const read = await images.read();
    expect(read).toEqual([...fused, ...whole].map(normaliseLatex));
  });
});

/**
 * The same 150 dpi crops enlarged twice with Lanczos, as the formula-confidence model's second read
 * enlarges them (worker/inference/math-page.ts): the interpolation fills the pixel between a `\prod`
 * and its upper limit, and the blob of both read as an `i` took the limits with it; a `c` and its
 * exponent, fused the same way, read as an unsure `\rightleftharpoons`, a shape never cut.
 */
describe('symbolsFromImage: glyphs fused by enlarging', () => {
  const formulas = ['P=\\prod_{k=1}^{n}p_{k}', '\\prod_{i=1}^{n}x_{i}=1', 'a^{2}+b^{2}=c^{2}'];
  const images = formulaImages(formulas, 'probability');

  it('cuts the blob apart', async () => {
    const read = await Promise.all(
      (await images.crops(150)).map(async (crop) => {
        const raw = { raw: { width: crop.width, height: crop.height, channels: 1 as const } };
        const big = await sharp(Buffer.from(crop.data), raw)
          .resize(2 * crop.width, 2 * crop.height, { kernel: 'lanczos3' })
          .toColourspace('b-w')
          .raw()
          .toBuffer({ resolveWithObject: true });
        const image = { data: new Uint8Array(big.data.buffer, big.data.byteOffset, big.data.length), width: big.info.width, height: big.info.height };
        return normaliseLatex(parseLayout(await symbolsFromImage(image)).latex);
      }),
    );
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
