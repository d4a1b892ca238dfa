import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Stroke } from '../../worker/engine/math/types.js';
import { seededRandom } from '../training/augment.js';
import type { MathJaxFontName } from '../training/render-mathjax.js';
import { distortStrokes } from '../training/strokes-distort.js';
import { strokesFromTex } from '../training/strokes-render.js';
import type { Formula } from './corpus.js';

/**
 * The synthetic handwriting set: each held-out formula typeset WHOLE by MathJax, thinned and traced
 * into pen strokes, then distorted once as a writer would (slant, rotation, elastic warp, pieces
 * nudged, wobble). The training generator only ever sees lone symbols, so spacing, sizes of
 * scripts and the way symbols sit against each other here are all unseen. Cached by content.
 */

/** Bump when the tracing or the distortion changes, so the cache is rebuilt. */
const SET_VERSION = 2;
const FONT: MathJaxFontName = 'newcm';
const EM_PX = 48;
const STRENGTH = 0.8;
const SEED = 90_210;

export interface HandwrittenFormula {
  formula: Formula;
  /** Absent when MathJax could not typeset the formula; `error` says why. */
  strokes?: Stroke[];
  error?: string;
}

export interface HandwritingSet {
  formulas: HandwrittenFormula[];
  path: string;
  fromCache: boolean;
  /** How the set was made, for the report. */
  recipe: string;
}

export async function handwritingSet(formulas: readonly Formula[], cacheDir: string): Promise<HandwritingSet> {
  const recipe = `MathJax ${FONT} at ${EM_PX} px/em, thinned and traced, distorted at strength ${STRENGTH} (seed ${SEED})`;
  const key = createHash('sha256').update(JSON.stringify({ SET_VERSION, recipe, formulas })).digest('hex').slice(0, 16);
  const path = join(cacheDir, `strokes-${key}.json`);
  if (existsSync(path)) return { formulas: JSON.parse(await readFile(path, 'utf8')) as HandwrittenFormula[], path, fromCache: true, recipe };
  const random = seededRandom(SEED);
  const set: HandwrittenFormula[] = [];
  for (const formula of formulas) {
    try {
      const traced = await strokesFromTex(formula.latex, FONT, EM_PX);
      const strokes = distortStrokes(traced, random, { unit: EM_PX, strength: STRENGTH });
      const round = (v: number) => Math.round(v * 100) / 100;
      set.push({ formula, strokes: strokes.map((s) => ({ x: s.x.map(round), y: s.y.map(round) })) });
    } catch (err) {
      set.push({ formula, error: err instanceof Error ? err.message : String(err) });
    }
  }
  await mkdir(cacheDir, { recursive: true });
  await writeFile(path, JSON.stringify(set));
  return { formulas: set, path, fromCache: false, recipe };
}
