import type { Formula } from './corpus.js';
import { evaluateImage, evaluatePdf, type Evaluation, type GroundTruth } from './evaluate.js';
import { loadParts, type Loaded } from './front-ends.js';
import { RESOLUTIONS_DPI, type RenderedCorpus } from './render.js';
import { evaluateStrokes } from './strokes-evaluate.js';
import { handwritingSet } from './strokes-set.js';

/**
 * Every front end over the rendered corpus (`formulas` of it): PDF glyphs, the image front end at
 * each resolution, then strokes traced from the same formulas. A front end whose parts are not
 * installed gets a row saying why. Shared by `make eval-math` (run.ts) and `make bench`.
 */
export async function evaluateFrontEnds(
  rendered: RenderedCorpus,
  formulas: readonly Formula[],
  all: readonly Formula[],
  cacheDir: string,
): Promise<Evaluation[]> {
  const parts = await loadParts();
  const evaluations: Evaluation[] = [];
  let truth: Loaded<GroundTruth> = { ok: false, reason: 'the PDF front end did not run' };
  if (!parts.core.ok) {
    const reason = parts.core.reason;
    evaluations.push(
      { frontEnd: 'PDF glyphs', unavailable: reason, rows: [] },
      ...RESOLUTIONS_DPI.map((dpi) => ({ frontEnd: `image ${dpi} dpi`, unavailable: reason, rows: [] })),
    );
  } else {
    const core = parts.core.value;
    if (parts.pdf.ok) {
      const pdf = await evaluatePdf(rendered, formulas, core, parts.pdf.value);
      evaluations.push(pdf.evaluation);
      truth = { ok: true, value: pdf.truth };
    } else {
      evaluations.push({ frontEnd: 'PDF glyphs', unavailable: parts.pdf.reason, rows: [] });
      truth = { ok: false, reason: parts.pdf.reason };
    }
    for (const dpi of RESOLUTIONS_DPI) {
      if (parts.image.ok) evaluations.push(await evaluateImage(rendered, formulas, dpi, core, parts.image.value, truth));
      else evaluations.push({ frontEnd: `image ${dpi} dpi`, unavailable: parts.image.reason, rows: [] });
    }
  }
  if (parts.core.ok) {
    const { recognizeStrokes } = await import('../../worker/engine/math/strokes/index.js');
    const set = await handwritingSet(all, cacheDir);
    const ids = new Set(formulas.map((f) => f.id));
    set.formulas = set.formulas.filter((h) => ids.has(h.formula.id));
    evaluations.push(await evaluateStrokes(set, parts.core.value, (strokes) => recognizeStrokes(strokes)));
  } else evaluations.push({ frontEnd: 'strokes', unavailable: parts.core.reason, rows: [] });

  return evaluations;
}
