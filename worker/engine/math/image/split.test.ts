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
 * pdflatex at 150 dpi (models/eval/render.ts): the long arrow of `\xrightarrow{\Delta}` is one blob
 * the classifier is unsure of, and a cut through its shaft left a bar it read as a tilde beside a
 * short arrow. A cut that leaves a bar cut a stroke, not the joint of two touching glyphs.
 */
describe('splitTouching on a pdflatex raster', () => {
  const formulas = ['\\text{CaCO}_{3}\\xrightarrow{\\Delta}\\text{CaO}+\\text{CO}_{2}', '2\\text{HgO}\\xrightarrow{\\Delta}2\\text{Hg}+O_{2}'];
  let dir: string;
  let rendered: RenderedCorpus;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-'));
    rendered = await renderCorpus(
      formulas.map((latex, i) => ({ id: `a${i}`, category: 'chemistry', latex })),
      dir,
    );
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps a long arrow whole', async () => {
    const read = await Promise.all(
      rendered.formulas.map(async (item) => normaliseLatex(parseLayout(await symbolsFromImage(await readPgm(item.crops[150].path))).latex)),
    );
    expect(read).toEqual(formulas.map(normaliseLatex));
  });
});
