import sharp from 'sharp';
import { parseArgs } from 'node:util';
import { percent } from '../../worker/engine/math/eval-metrics.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { dataUrl, startMathStack } from '../../test/integration/v3-math-support.js';
import { handwrittenImages } from './handwriting-image-set.js';

/**
 * The held-out writers' handwritten expression pictures (handwriting-image-set.ts) through
 * POST /v3/text with default options, read by a real inference worker: how many answer at all
 * (the default confidence_rate_threshold 0.75) and how many answer the exact expression.
 *
 * Usage: npx tsx models/eval/handwriting-image-http.ts [--count 60]
 */
const { values } = parseArgs({ options: { count: { type: 'string' } } });
const same = (latex: string) => {
  try {
    return normaliseLatex(latex).replace(/\\cdot/g, '.');
  } catch {
    return `unparsable ${latex}`;
  }
};
const images = await handwrittenImages(Number(values.count ?? 60));
const stack = await startMathStack();
try {
  let answered = 0;
  let exact = 0;
  let handwritten = 0;
  for (const item of images) {
    const png = await sharp(Buffer.from(item.image.data), { raw: { width: item.image.width, height: item.image.height, channels: 1 } })
      .png()
      .toBuffer();
    const r = await stack.call('POST', '/v3/text', { src: dataUrl(png), formats: ['text', 'latex_styled'] });
    if (r.body.is_handwritten) handwritten++;
    if (r.status !== 200 || r.body.error) continue;
    answered++;
    if (typeof r.body.latex_styled === 'string' && same(r.body.latex_styled) === same(item.latex)) exact++;
  }
  const n = images.length;
  console.log(
    `POST /v3/text, default options, ${n} held-out handwritten expressions: answered ${percent(answered / n)}, exact and answered ${percent(exact / n)}, answered that are exact ${answered ? percent(exact / answered) : '–'}, is_handwritten ${percent(handwritten / n)}`,
  );
} finally {
  await stack.stop();
}
