import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnAppliance } from '../../../test/support/appliance.js';
import { pcoClient } from '../../../test/support/pco-client.js';
import { normalisedEditDistance, percent } from '../../../worker/engine/math/eval-metrics.js';
import { pngOfPgm } from '../noisy-scans.js';
import { DEFAULT_CONFIDENCE_RATE_THRESHOLD } from '../../../appliance/http/v3/text-result.js';
import { atThreshold, auc, reliability, type Scored } from '../../training/fit-confidence.js';
import { answerLatex } from '../product.js';
import { FormulaCompileError, renderCorpus, RESOLUTIONS_DPI, type Dpi, type RenderedCorpus } from '../render.js';
import type { SourceDisplay } from './displays.js';
import { findRealDocuments } from './documents.js';
import { intertextParts, normaliseDisplay, normaliseMmdDisplay } from './normalise.js';
import { constructConsoleTable, failuresMarkdown, resultsMarkdown, type DocumentFacts } from './report.js';
import type { ScoredDisplay } from './score.js';

/**
 * Formula images of real papers' maths through `POST /v3/text` (issue 16's "formula images the
 * project never saw"): every display of the texlive-doc set (documents.ts, the amsmath documents
 * held out) typeset alone by pdflatex in its own environment (starred, so no number prints unless
 * the source tags it), rasterised by pdftoppm and cropped to its ink (render.ts), then sent as a
 * PNG to a running appliance at default options. The answer counts when it is one maths element
 * whose LaTeX has the source's display normal form (normalise.ts); a read the default
 * confidence_rate_threshold refuses (math_confidence) counts as wrong, and the report adds how
 * well confidence_rate separates exact reads from wrong ones on these real formulas. Displays split by `\intertext`
 * and those under a bold maths version are left out (their page is not one formula). A display
 * that does not compile alone (it leans on its document's preamble) is left out and counted.
 *
 * Usage: npx tsx models/eval/texdoc/images.ts [--dpi 150|300] [--only SUBSTRING[,…]] [--limit N]
 * Writes TEXDOC-IMAGES-RESULTS.md (whole set) or .cache/images-failures.md.
 */

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface DisplayImage {
  id: string;
  latex: string;
  document: string;
  display: SourceDisplay;
}

/** The display as its document sets it, unnumbered: `\begin{align*}…`, or `\[ … \]` for the bare forms. */
function displayPage(image: DisplayImage): string {
  const { environment } = image.display;
  // An unnumbered environment refuses labels, which print nothing anyway.
  const body = image.display.body.replace(/\\label\s*(\[[^\]]*\])?\s*\{[^{}]*\}/gu, ' ');
  if (environment === '[' || environment === '$$' || /^displaymath/u.test(environment)) return `\\[ ${body} \\]`;
  const name = environment.endsWith('*') ? environment : `${environment}*`;
  return `\\begin{${name}} ${body} \\end{${name}}`;
}

/** Renders every display, leaving out (and naming) those pdflatex cannot typeset alone. */
async function renderDisplays(images: DisplayImage[], cache: string): Promise<{ rendered: RenderedCorpus<DisplayImage>; failed: DisplayImage[] }> {
  const failed: DisplayImage[] = [];
  let left = images;
  for (;;) {
    try {
      return { rendered: await renderCorpus(left, cache, { page: displayPage, paperHeightIn: 9 }), failed };
    } catch (err) {
      const culprit = err instanceof FormulaCompileError ? err.formula : undefined;
      if (!culprit) throw err;
      console.log(`left out ${culprit.id}: ${err instanceof Error ? err.message.slice(0, 200) : ''}`);
      failed.push(culprit as DisplayImage);
      left = left.filter((image) => image.id !== culprit.id);
    }
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { dpi: { type: 'string', default: '150' }, only: { type: 'string' }, limit: { type: 'string' } } });
  const dpi = Number(values.dpi) as Dpi;
  if (!RESOLUTIONS_DPI.includes(dpi)) throw new Error(`--dpi must be one of ${RESOLUTIONS_DPI.join(', ')}`);
  const documents = (await findRealDocuments()).filter((d) => values.only === undefined || values.only.split(',').some((o) => d.name.includes(o)));
  const images: DisplayImage[] = documents.flatMap((document) =>
    document.displays
      // A display of spacing alone (`~ ~`) prints no ink: there is no image to read.
      .filter((display) => display.boldVersion !== true && intertextParts(display.body).length === 1 && /[A-Za-z0-9]/u.test(display.body))
      .map((display, i) => ({ id: `${document.name.replaceAll(/[^A-Za-z0-9]+/gu, '_')}_${i}`, latex: display.body, document: document.name, display })),
  );
  const chosen = values.limit === undefined ? images : images.slice(0, Number(values.limit));
  const cache = here('.cache/images');
  await mkdir(cache, { recursive: true });
  const { rendered, failed } = await renderDisplays(chosen, cache);

  const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '1', FOLIO_TEXT_REQUESTS_MAX: '1' }, { startTimeoutMs: 300_000 });
  const rows: ScoredDisplay[] = [];
  /** Every answer read without the threshold: whether it is exact, and its confidence_rate. */
  const reads: Scored[] = [];
  const seconds = new Map<string, number>();
  try {
    const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const auth = await pcoClient(app.url).newKey(`texdoc-images-${Date.now()}`);
    for (const item of rendered.formulas) {
      const { png } = await pngOfPgm(item.crops[dpi].path);
      const started = performance.now();
      // Asked with no threshold, so that a refused read is still seen; the default threshold is applied here as /v3/text applies it (text-result.ts).
      const r = await call('/v3/text', { src: `data:image/png;base64,${png.toString('base64')}`, confidence_rate_threshold: 0 }, auth);
      seconds.set(item.formula.document, (seconds.get(item.formula.document) ?? 0) + (performance.now() - started) / 1000);
      const read = r.status === 200 && !r.body?.error ? String(r.body.text ?? '') : `(${r.status} ${r.body?.error_info?.id ?? r.body?.error})`;
      const rate = Number(r.body?.confidence_rate ?? 0);
      const refused = read.trim() !== '' && rate < DEFAULT_CONFIDENCE_RATE_THRESHOLD;
      const row = scored(item.formula, refused ? '(math_confidence)' : read);
      rows.push(row);
      reads.push({ exact: scored(item.formula, read).exact, rate });
      const mark = row.exact ? 'ok ' : refused && reads.at(-1)!.exact ? 'REF' : 'BAD';
      // The ink kind the appliance judged (a typeset image read as handwriting is read by the other classifier).
      const hand = r.body?.is_handwritten === true ? ' hand' : '';
      console.log(`${mark} ${item.formula.id} ${rate.toFixed(2)}${hand}: ${row.exact ? row.expected : `${row.expected}\n    ⟶ ${read.replaceAll('\n', ' ')}`}`);
    }
  } finally {
    await app.stop();
  }

  console.log(`\n${constructConsoleTable(rows)}`);
  console.log(`${failed.length} displays did not typeset alone and are left out`);
  const exactReads = reads.filter((r) => r.exact).length / Math.max(1, reads.length);
  const calibration = [
    '## Confidence',
    '',
    `Read without a threshold, ${percent(exactReads)} of the displays are exact; the default confidence_rate_threshold (${DEFAULT_CONFIDENCE_RATE_THRESHOLD}) answers or refuses them as follows.`,
    '',
    `${atThreshold(reads)} Ranking AUC ${auc(reads).toFixed(3)}.`,
    '',
    reliability(reads),
    '',
  ].join('\n');
  console.log(`\n${calibration}`);
  const facts: DocumentFacts[] = documents
    .filter((d) => seconds.has(d.name))
    .map((d) => ({ name: d.name, pages: d.pages, displays: rows.filter((r) => r.document === d.name).length, seconds: seconds.get(d.name)! }));
  const whole = values.only === undefined && values.limit === undefined;
  const intro = `Each display typeset alone by pdflatex, rasterised at ${dpi} dpi and cropped to its ink, sent as a PNG to a running appliance's \`POST /v3/text\` with default options (models/eval/texdoc/images.ts); ${failed.length} displays that do not typeset without their document's preamble are left out. The "pipeline s" column is the seconds of its displays' requests.`;
  if (whole) {
    await writeFile(
      here('../TEXDOC-IMAGES-RESULTS.md'),
      `${resultsMarkdown(rows, facts, 'Real-document maths as formula images (texlive-doc, /v3/text)', intro)}\n${calibration}`,
    );
    await writeFile(here('.cache/images-failures.md'), failuresMarkdown(rows));
    console.log('wrote models/eval/TEXDOC-IMAGES-RESULTS.md');
  } else {
    await writeFile(here('.cache/images-failures.md'), failuresMarkdown(rows));
  }
  return 0;
}

/** One display's answer scored against its source: exact after both are normalised, else by edit distance. */
function scored(image: DisplayImage, answer: string): ScoredDisplay {
  const expected = normaliseDisplay(image.display.environment, image.display.body);
  let got: string;
  try {
    got = normaliseMmdDisplay(answerLatex(answer));
  } catch {
    got = answer;
  }
  const distance = got === expected ? 0 : normalisedEditDistance(expected, got);
  return {
    document: image.document,
    environment: image.display.environment,
    constructs: image.display.constructs,
    source: image.display.body,
    expected,
    got,
    distance,
    exact: distance === 0,
  };
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
