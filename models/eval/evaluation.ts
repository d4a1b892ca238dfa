import type { Formula } from './corpus.js';
import { evaluateImage, evaluatePdf, type Evaluation, type GroundTruth } from './evaluate.js';
import { loadParts, type Loaded } from './front-ends.js';
import { RESOLUTIONS_DPI, type RenderedCorpus } from './render.js';

/**
 * Every front end over the rendered corpus (`formulas` of it): PDF glyphs and the image front end at
 * each resolution. A front end whose parts are not installed gets a row saying why. Shared by
 * `make eval-math` (run.ts) and `make bench`. Pen strokes are measured on real handwriting of
 * held-out writers instead (strokes-real-section.ts): strokes traced from typeset glyphs are not
 * what the strokes classifier, trained on real ink, is for.
 */
export async function evaluateFrontEnds(rendered: RenderedCorpus, formulas: readonly Formula[]): Promise<Evaluation[]> {
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
  return evaluations;
}
