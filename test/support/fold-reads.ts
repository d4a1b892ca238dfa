import { composedBy, type Composer, type Piece, type WriterPool } from '../../models/eval/strokes-real-set.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import type { StrokeClassifier } from '../../worker/engine/math/strokes/classifier.js';
import { recognizeStrokes } from '../../worker/engine/math/strokes/index.js';

/**
 * How many times the strokes engine reads `latex` exactly when each writer of `pool` writes the
 * expression `build` lays out three times with its own drawings (the composer's seeds 17 000,
 * 27 000 and 37 000 plus the writer's index): the count the strokes tests hold floors on.
 */
export async function exactReads(pool: WriterPool, classifier: StrokeClassifier, latex: string, build: (c: Composer) => Piece): Promise<number> {
  let exact = 0;
  for (const [k, writer] of pool.writers.entries()) {
    for (const seed of [17_000, 27_000, 37_000]) {
      const drawn = composedBy(pool, writer, seed + k, build);
      if (drawn && normaliseLatex((await recognizeStrokes(drawn.strokes, { classifier })).latex) === normaliseLatex(latex)) exact++;
    }
  }
  return exact;
}
