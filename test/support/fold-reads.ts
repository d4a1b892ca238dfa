import { beforeAll } from 'vitest';
import { composedBy, writerPool, type Composer, type Piece, type WriterPool } from '../../models/eval/strokes-real-set.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { StrokeClassifier } from '../../worker/engine/math/strokes/classifier.js';
import { recognizeStrokes } from '../../worker/engine/math/strokes/index.js';

/**
 * For a describe block on training-fold writers' real ink (fold 1, never the held-out fold 0): loads
 * the stroke classifier and the writers before its tests, and returns how many times the strokes
 * engine reads `latex` exactly when each writer writes the expression `build` lays out three times
 * with its own drawings (the composer's seeds 17 000, 27 000 and 37 000 plus the writer's index):
 * the count the strokes tests hold floors on.
 */
export function foldOneExactReads(): (latex: string, build: (c: Composer) => Piece) => Promise<number> {
  let classifier: StrokeClassifier;
  let pool: WriterPool;
  beforeAll(async () => {
    classifier = await StrokeClassifier.load();
    pool = await writerPool((fold) => fold === 1);
  }, 60_000);
  return async (latex, build) => {
    let exact = 0;
    for (const [k, writer] of pool.writers.entries()) {
      for (const seed of [17_000, 27_000, 37_000]) {
        const drawn = composedBy(pool, writer, seed + k, build);
        if (drawn && normaliseLatex((await recognizeStrokes(drawn.strokes, { classifier })).latex) === normaliseLatex(latex)) exact++;
      }
    }
    return exact;
  };
}
