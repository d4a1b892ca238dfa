import sharp from 'sharp';
import { noisySkewed, scanSkew } from '../../bench/scanned-renders.js';
import type { ScoredFormula } from '../../worker/engine/math/eval-metrics.js';
import type { Formula } from './corpus.js';
import type { Evaluation } from './evaluate.js';
import type { ImageFrontEnd, Parts } from './front-ends.js';
import { readPgm } from './pgm.js';
import type { RenderedCorpus } from './render.js';

/**
 * The noisy scans of the formula images, shared by the engine's noisy row (here) and the product's
 * noisy `/v3/pdf` row (product.ts), so both read the very same pixels: each 150 dpi crop as a scanner
 * takes it (bench/scanned-renders.ts `noisySkewed`: turned by 0.5–1°, softened, with sensor noise and
 * dust specks), seeded by its place in the run.
 */

export const NOISY_DPI = 150;
/** Seed of the first formula's noisy scan (the bench pages use 1000 + their index). */
export const NOISY_SEED = 2000;

export interface PageImage {
  png: Buffer;
  width: number;
  height: number;
}

/** A crop of the cache (a PGM) as a PNG. */
export async function pngOfPgm(path: string): Promise<PageImage> {
  const g = await readPgm(path);
  const png = await sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } })
    .png()
    .toBuffer();
  return { png, width: g.width, height: g.height };
}

/** The noisy scan of each clean image, in order (the `i`th is turned by scanSkew(i)). */
export async function noisyScans(clean: readonly PageImage[]): Promise<PageImage[]> {
  return Promise.all(
    clean.map(async (image, i) => {
      const png = await noisySkewed(image.png, scanSkew(i), NOISY_SEED + i);
      const { width, height } = await sharp(png).metadata();
      return { png, width: width!, height: height! };
    }),
  );
}

/**
 * The engine's noisy row: each noisy scan decoded to grey pixels and read by the image front end and
 * the parser, as `image 150 dpi` reads the clean crop. The product's noisy row is this row's target.
 */
export async function evaluateNoisyImage(rendered: RenderedCorpus, formulas: readonly Formula[], parts: Parts, frontEnd: ImageFrontEnd): Promise<Evaluation> {
  const ids = new Set(formulas.map((f) => f.id));
  const items = rendered.formulas.filter((r) => ids.has(r.formula.id));
  const scans = await noisyScans(await Promise.all(items.map((item) => pngOfPgm(item.crops[NOISY_DPI].path))));
  const rows: ScoredFormula[] = [];
  for (const [i, item] of items.entries()) {
    const { data, info } = await sharp(scans[i]!.png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const row: ScoredFormula = {
      id: item.formula.id,
      category: item.formula.category,
      source: item.formula.latex,
      expected: parts.normaliseLatex(item.formula.latex),
      got: '',
      ms: 0,
    };
    try {
      const start = performance.now();
      const symbols = await frontEnd.symbolsFromImage({ data: new Uint8Array(data), width: info.width, height: info.height });
      const latex = (await parts.parseLayout(symbols)).latex;
      row.ms = performance.now() - start;
      row.got = parts.normaliseLatex(latex);
    } catch (err) {
      row.error = `recognition threw: ${err instanceof Error ? err.message : String(err)}`;
      console.error(`[engine noisy scan] ${item.formula.id} ${item.formula.latex}: ${row.error}`);
    }
    rows.push(row);
  }
  return { frontEnd: `engine noisy scan ${NOISY_DPI} dpi`, rows };
}
