import { describe, expect, it } from 'vitest';
import { datasetsPresent } from '../../models/training/strokes-real.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { readStrokes } from '../../worker/engine/math/strokes/index.js';
import { handwrittenFixtures } from '../client-compat/handwriting.js';

/**
 * mpxpy's quadratic_eq.json stand-in (test/client-compat/handwriting.ts): x² + 2x + 1 = 0 in one
 * held-out UNIPEN writer's own glyphs, the `2` of x² drawn at 0.6 of the line's size. Read by the
 * engine with the shipped strokes classifier, as test_strokes::test_strokes_recognition reads it
 * over HTTP. The script `2` has a small `z`'s height against the line: it must be read at script
 * size against its base (strokes/scripts.ts), where it read `z` before. (The whole equation reads
 * `x^{2}+2x+L=0` with the shipped BiGRU, the writer's hooked `1` taken for `L`; exactly with the
 * CPU-trained `base_sized`, models/training/README.md "Tenth round".) Needs the shared data sets.
 */
describe.skipIf(!datasetsPresent())('a held-out writer’s x^2+2x+1=0 (client-compat quadratic_eq)', () => {
  it('reads the raised 2 as the superscript 2 of x', async () => {
    const fixtures = await handwrittenFixtures();
    const { result, symbols } = await readStrokes(fixtures!.quadratic);
    expect(symbols[1]?.latex).toBe('2');
    expect(normaliseLatex(result.latex).startsWith(normaliseLatex('x^{2}+2x+'))).toBe(true);
  });
});
