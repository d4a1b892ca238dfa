import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { readPgm } from '../../models/eval/pgm.js';
import type { Category } from '../../models/eval/corpus.js';
import { renderCorpus, type RenderedCorpus, type RenderOptions } from '../../models/eval/render.js';
import type { Formula } from '../../models/eval/corpus.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { parseLayout } from '../../worker/engine/math/layout/index.js';
import { symbolsFromImage } from '../../worker/engine/math/image/symbols-from-image.js';
import type { GrayImage } from '../../worker/engine/math/types.js';

type Dpi = 150 | 300;

/**
 * Formulas typeset by pdflatex and rasterised as the maths evaluation does (models/eval/render.ts),
 * for a describe block: typeset before its tests, removed after them. `read` runs each crop through
 * the image front end and the layout parser and returns the normalised LaTeX, at one resolution
 * or at one per formula; `crops` gives the crops themselves. `options` may set each page's content
 * (a formula in its own environment: `\begin{align*}…`).
 */
export function formulaImages(
  formulas: string[],
  category: Category = 'algebra',
  options: RenderOptions<Formula> = {},
): { read: (dpi?: Dpi | Dpi[]) => Promise<string[]>; crops: (dpi?: Dpi) => Promise<GrayImage[]> } {
  let dir: string;
  let rendered: RenderedCorpus;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'formula-images-'));
    rendered = await renderCorpus(
      formulas.map((latex, i) => ({ id: `f${i}`, category, latex })),
      dir,
      options,
    );
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return {
    crops: (dpi = 150) => Promise.all(rendered.formulas.map((item) => readPgm(item.crops[dpi].path))),
    read: (dpi = 150) =>
      Promise.all(
        rendered.formulas.map(async (item, i) => {
          const crop = item.crops[Array.isArray(dpi) ? dpi[i]! : dpi];
          return normaliseLatex(parseLayout(await symbolsFromImage(await readPgm(crop.path))).latex);
        }),
      ),
  };
}
