import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { convertDocument } from '../../../worker/document/pipeline/index.js';
import { findRealDocuments, TEXDOC_ROOT } from './documents.js';
import { mmdDisplays } from './normalise.js';
import { constructConsoleTable, failuresMarkdown, resultsMarkdown, type DocumentFacts } from './report.js';
import { scoreDocument, type ScoredDisplay } from './score.js';

/**
 * The real-document evaluation (part of `make eval-math`): every document of the texlive-doc set
 * (documents.ts) goes through Folio's document pipeline at default options — `convertDocument`,
 * what `/v3/pdf` runs — and each display equation of its LaTeX source is scored against the MMD's
 * displays (score.ts) after the display normalisation (normalise.ts). Writes TEXDOC-RESULTS.md
 * (per-construct table) and texdoc-failures.md (the worst displays of each construct).
 *
 * Usage: npx tsx models/eval/texdoc/run.ts [--only SUBSTRING] [--reuse]
 *   --only: documents whose name contains SUBSTRING; --reuse: score the MMD cached by the last run.
 */

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const CACHE = here('.cache');

async function documentMmd(pdfPath: string, name: string, reuse: boolean): Promise<{ mmd: string; seconds: number }> {
  const cached = `${CACHE}/${name.replaceAll('/', '__')}.mmd`;
  if (reuse && existsSync(cached)) return { mmd: await readFile(cached, 'utf8'), seconds: 0 };
  const started = performance.now();
  const { mmd } = await convertDocument(pdfPath);
  await writeFile(cached, mmd);
  return { mmd, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, reuse: { type: 'boolean', default: false } } });
  if (!existsSync(TEXDOC_ROOT)) {
    console.error(`FAILED: ${TEXDOC_ROOT} is missing: install the texlive-*-doc packages of the Makefile's EVAL_PACKAGES`);
    return 1;
  }
  await mkdir(CACHE, { recursive: true });
  const documents = (await findRealDocuments()).filter((d) => values.only === undefined || d.name.includes(values.only));
  const rows: ScoredDisplay[] = [];
  const facts: DocumentFacts[] = [];
  for (const document of documents) {
    const { mmd, seconds } = await documentMmd(document.pdfPath, document.name, values.reuse ?? false);
    const scored = scoreDocument(document.name, document.displays, mmdDisplays(mmd));
    rows.push(...scored);
    facts.push({ name: document.name, pages: document.pages, displays: document.displays.length, seconds });
    console.log(`${document.name}: ${scored.filter((r) => r.exact).length}/${scored.length} exact (${seconds.toFixed(1)} s)`);
  }
  await writeFile(`${CACHE}/rows.json`, JSON.stringify(rows, null, 1));
  console.log(`\n${constructConsoleTable(rows)}`);
  if (values.only === undefined) {
    await writeFile(here('../TEXDOC-RESULTS.md'), resultsMarkdown(rows, facts));
    await writeFile(here('../texdoc-failures.md'), failuresMarkdown(rows));
    console.log('\nwrote models/eval/TEXDOC-RESULTS.md and models/eval/texdoc-failures.md');
  } else {
    await writeFile(`${CACHE}/failures.md`, failuresMarkdown(rows));
    console.log(`\nwrote ${CACHE}/failures.md`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
