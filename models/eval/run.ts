import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CATEGORIES, readCorpus } from './corpus.js';
import { evaluateFrontEnds } from './evaluation.js';
import { loadParts } from './front-ends.js';
import { evaluateNoisyImage } from './noisy-scans.js';
import { evaluateProduct } from './product.js';
import { failuresMarkdown, resultsMarkdown, resultsTables, type RunFacts } from './report.js';
import { renderCorpus } from './render.js';
import { realStrokesSection } from './strokes-real-section.js';

/**
 * `make eval-math`: renders the held-out corpus, runs every front end over it, prints the table
 * and writes RESULTS.md and failures.md. Exits 1 when a front end threw on any formula or a
 * required part (parser, normaliser, PDF or image front end) is missing, so it cannot pass quietly.
 *
 * Usage: npx tsx models/eval/run.ts [--limit N] [--engine-only | --product-only]   (N: evaluate only the
 * first N formulas; --engine-only: skip the product rows, which start an appliance; --product-only:
 * only the product rows and the engine's noisy row they are measured against, printed and not
 * written, to compare commits quickly)
 */

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function machineFacts(): Pick<RunFacts, 'commit' | 'cpuModel' | 'cores' | 'affinity' | 'node'> {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here('.'), encoding: 'utf8' }).trim();
  } catch {
    // Not a git checkout (an installer bundle): the report says "unknown".
  }
  const status = readFileSync('/proc/self/status', 'utf8');
  const affinity = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? 'unknown';
  return { commit, cpuModel: cpus()[0]?.model ?? 'unknown', cores: cpus().length, affinity, node: process.versions.node };
}

async function main(): Promise<number> {
  const started = performance.now();
  const { values } = parseArgs({ options: { limit: { type: 'string' }, 'engine-only': { type: 'boolean' }, 'product-only': { type: 'boolean' } } });
  if (values['engine-only'] && values['product-only']) throw new Error('--engine-only and --product-only exclude each other');
  const corpus = await readCorpus(here('formulas.tsv'));
  const limit = values.limit === undefined ? corpus.formulas.length : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`--limit must be a positive integer, not ${values.limit}`);
  const formulas = corpus.formulas.slice(0, limit);

  // The whole corpus is always rendered, so --limit reuses the full cache instead of replacing it.
  const renderStart = performance.now();
  const rendered = await renderCorpus(corpus.formulas, here('.cache'));
  const renderSeconds = (performance.now() - renderStart) / 1000;
  console.log(
    `rendered ${corpus.formulas.length} formulas (${rendered.fromCache ? 'from cache' : `${renderSeconds.toFixed(1)} s`}); evaluating ${formulas.length}`,
  );

  const evaluations = values['product-only'] ? [] : await evaluateFrontEnds(rendered, formulas);
  const parts = await loadParts();
  // The engine on the noisy scans the product's noisy row reads (noisy-scans.ts): that row's target.
  if (parts.core.ok && parts.image.ok) evaluations.push(await evaluateNoisyImage(rendered, formulas, parts.core.value, parts.image.value));
  // Product rows: the same images through a running appliance (product.ts), unless --engine-only.
  if (!values['engine-only'] && parts.core.ok) evaluations.push(...(await evaluateProduct(rendered, formulas, parts.core.value)));

  const facts: RunFacts = {
    ...machineFacts(),
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    formulas: formulas.length,
    corpusFormulas: corpus.formulas.length,
    renderCacheKey: rendered.pdfPath.split('/').at(-2) ?? '',
    renderedFromCache: rendered.fromCache,
    renderSeconds,
    totalSeconds: (performance.now() - started) / 1000,
  };
  console.log(`\n${resultsTables(evaluations, CATEGORIES)}`);
  if (values['product-only']) return evaluations.some((e) => e.unavailable || e.rows.some((r) => r.error !== undefined)) ? 1 : 0;
  await mkdir(here('.'), { recursive: true });
  const realStrokes = await realStrokesSection();
  console.log(`\n${realStrokes}`);
  await writeFile(here('RESULTS.md'), `${resultsMarkdown(evaluations, CATEGORIES, facts)}\n${realStrokes}`);
  await writeFile(here('failures.md'), failuresMarkdown(evaluations, facts));
  console.log(`\nwrote models/eval/RESULTS.md and models/eval/failures.md in ${facts.totalSeconds.toFixed(1)} s (CPUs ${facts.affinity})`);

  const errors = evaluations.reduce((n, e) => n + e.rows.filter((r) => r.error !== undefined).length, 0);
  const missing = evaluations.filter((e) => e.unavailable);
  if (errors > 0) console.error(`FAILED: ${errors} recognitions threw (listed above and in failures.md)`);
  if (missing.length > 0) console.error(`FAILED: not available: ${missing.map((e) => `${e.frontEnd} (${e.unavailable})`).join('; ')}`);
  return errors > 0 || missing.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
