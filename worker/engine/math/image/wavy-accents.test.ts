import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPgm } from '../../../../models/eval/pgm.js';
import { renderCorpus, type RenderedCorpus } from '../../../../models/eval/render.js';
import { normaliseLatex } from '../latex-normalise.js';
import { parseLayout } from '../layout/index.js';
import { symbolsFromImage } from './symbols-from-image.js';

/**
 * pdflatex and pdftoppm at 150 dpi, as the maths evaluation renders (models/eval/render.ts): each
 * tilde and hat binarises as flat as a bar and was read `\bar`; the bars, the minus and the fraction
 * bar beside them must stay rules.
 */
describe('symbolsFromImage: tildes and hats at 150 dpi', () => {
  const formulas = ['\\tilde{p}+\\hat{C}=\\bar{k}', 'y=\\bar{x}-\\tilde{V}\\frac{a}{b}', '\\hat{\\xi}^{2}+\\tilde{\\theta}_{1}'];
  let dir: string;
  let rendered: RenderedCorpus;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wavy-accents-'));
    rendered = await renderCorpus(
      formulas.map((latex, i) => ({ id: `f${i}`, category: 'algebra', latex })),
      dir,
    );
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads a tilde or a hat the raster drew flat as that accent, and a bar as a bar', async () => {
    const read = await Promise.all(
      rendered.formulas.map(async (item) => normaliseLatex(parseLayout(await symbolsFromImage(await readPgm(item.crops[150].path))).latex)),
    );
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
