import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCAN_BENCH_DPI } from '../../../bench/scanned-renders.js';
import { spawnAppliance } from '../../../test/support/appliance.js';
import { pcoClient } from '../../../test/support/pco-client.js';
import { waitFor } from '../../../test/support/ports.js';
import { markdownTable, percent } from '../../../worker/engine/math/eval-metrics.js';
import { findRealDocuments, TEXDOC_ROOT } from './documents.js';
import { mmdDisplays } from './normalise.js';
import { failuresMarkdown, resultsMarkdown, type DocumentFacts } from './report.js';
import { scannedCopy, type ScanMode } from './scan.js';
import { CLOSE_DISTANCE, constructTable, scoreDocument, type ScoredDisplay } from './score.js';

/**
 * The real-document evaluation on scans: each texlive-doc document of at most --max-pages pages
 * (documents.ts; never the held-out amsmath documents) rasterised at 200 dpi into an image-only
 * PDF (scan.ts; `--noisy`: as a scanner takes it), sent to a running appliance's `POST /v3/pdf` with
 * default options, and its `.mmd` scored display by display against the document's LaTeX source
 * exactly as the born-digital run scores (score.ts). Beside each construct it gives the born-digital
 * result on the same displays (the last `run.ts` run's rows). Writes TEXDOC-SCANNED-RESULTS.md or
 * TEXDOC-NOISY-RESULTS.md, and the worst displays to .cache/scan-<mode>/failures.md.
 *
 * Usage: npx tsx models/eval/texdoc/scanned.ts [--noisy] [--max-pages 14] [--only SUBSTRING[,SUBSTRING…]] [--reuse]
 *        [--read-only-cached] (score only the documents already read: an interrupted run's reads so far)
 */

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
/** Longest wait for one scanned document, per page. */
const MS_PER_PAGE = 60_000;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      noisy: { type: 'boolean', default: false },
      'max-pages': { type: 'string', default: '14' },
      only: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      'read-only-cached': { type: 'boolean', default: false },
    },
  });
  if (!existsSync(TEXDOC_ROOT)) {
    console.error(`FAILED: ${TEXDOC_ROOT} is missing: install the texlive-*-doc packages of the Makefile's EVAL_PACKAGES`);
    return 1;
  }
  const mode: ScanMode = values.noisy ? 'noisy' : 'clean';
  const cache = here(`.cache/scan-${mode}`);
  await mkdir(cache, { recursive: true });
  const maxPages = Number(values['max-pages']);
  const cachedRead = (name: string) => `${cache}/${name.replaceAll('/', '__')}.mmd`;
  const documents = (await findRealDocuments()).filter(
    (d) =>
      d.pages <= maxPages &&
      (values.only === undefined || values.only.split(',').some((o) => d.name.includes(o))) &&
      (!values['read-only-cached'] || existsSync(cachedRead(d.name))),
  );
  const reuse = values.reuse || values['read-only-cached'];
  const bornDigital = existsSync(here('.cache/rows.json')) ? (JSON.parse(await readFile(here('.cache/rows.json'), 'utf8')) as ScoredDisplay[]) : [];

  // Started only when a document has to be read: rescoring cached reads (--reuse) needs no appliance.
  let appliance: { app: Awaited<ReturnType<typeof spawnAppliance>>; auth: Record<string, string> } | undefined;
  const reader = async () => {
    if (!appliance) {
      const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '1' }, { startTimeoutMs: 300_000 });
      appliance = { app, auth: {} };
      appliance.auth = await pcoClient(app.url).newKey(`texdoc-scan-${Date.now()}`);
    }
    return appliance;
  };
  const rows: ScoredDisplay[] = [];
  const facts: DocumentFacts[] = [];
  try {
    for (const document of documents) {
      const cached = cachedRead(document.name);
      const started = performance.now();
      const mmd =
        reuse && existsSync(cached)
          ? await readFile(cached, 'utf8')
          : await (async () => {
              const { app, auth } = await reader();
              return readScan(app.url, auth, await scannedCopy(await readFile(document.pdfPath), mode), document.pages);
            })();
      await writeFile(cached, mmd);
      const seconds = (performance.now() - started) / 1000;
      const scored = scoreDocument(document.name, document.displays, mmdDisplays(mmd));
      rows.push(...scored);
      facts.push({ name: document.name, pages: document.pages, displays: document.displays.length, seconds });
      console.log(`${document.name}: ${scored.filter((r) => r.exact).length}/${scored.length} exact (${seconds.toFixed(0)} s, ${document.pages} pages)`);
    }
  } finally {
    await appliance?.app.stop();
  }

  const onSameDocuments = (rowsOf: ScoredDisplay[]) =>
    new Map(constructTable(rowsOf.filter((r) => facts.some((d) => d.name === r.document))).map((r) => [r.construct, r]));
  // The noisy run also sets each construct beside the clean scans' last rows (scan-clean/rows.json).
  const cleanRows = here('.cache/scan-clean/rows.json');
  const references: [string, ScoredDisplay[]][] = [['born-digital', bornDigital]];
  if (mode === 'noisy' && existsSync(cleanRows)) references.push(['clean scan', JSON.parse(await readFile(cleanRows, 'utf8')) as ScoredDisplay[]]);
  const tables = references.map(([name, rowsOf]) => [name, onSameDocuments(rowsOf)] as const);
  const comparison = markdownTable(
    [
      'construct',
      'displays',
      `${mode === 'noisy' ? 'noisy' : 'scanned'} exact`,
      `≤ ${CLOSE_DISTANCE}`,
      ...tables.flatMap(([name]) => [`${name} exact`, `${name} ≤ ${CLOSE_DISTANCE}`]),
    ],
    constructTable(rows).map((r) => [
      r.construct,
      String(r.count),
      percent(r.exact),
      percent(r.close),
      ...tables.flatMap(([, table]) => {
        const d = table.get(r.construct);
        return d ? [percent(d.exact), percent(d.close)] : ['–', '–'];
      }),
    ]),
  );
  console.log(`\n${comparison}`);
  const intro = [
    `Each document of at most ${maxPages} pages rasterised at ${SCAN_BENCH_DPI} dpi in grey${mode === 'noisy' ? ', each page turned by ±0.5–1°, softened, grainy and dusty (bench/scanned-renders.ts)' : ''}, as an image-only PDF through a running appliance's \`POST /v3/pdf\` (default options); scored as the born-digital run scores (models/eval/texdoc/README.md).`,
    '',
    `Against the born-digital read of the same displays (the last \`run.ts\` rows)${mode === 'noisy' ? " and the clean scans (the last clean run's rows)" : ''}:`,
    '',
    comparison,
  ].join('\n');
  const title = `Real-document maths evaluation on ${mode === 'noisy' ? 'noisy ' : ''}scans (texlive-doc)`;
  await writeFile(`${cache}/rows.json`, JSON.stringify(rows, null, 1));
  await writeFile(`${cache}/failures.md`, failuresMarkdown(rows));
  if (values.only === undefined && !values['read-only-cached'])
    await writeFile(here(`../TEXDOC-${mode === 'noisy' ? 'NOISY' : 'SCANNED'}-RESULTS.md`), resultsMarkdown(rows, facts, title, intro));
  return 0;
}

/** The MMD `/v3/pdf` answers for `pdf`, or '' when the document ends in error. */
async function readScan(url: string, auth: Record<string, string>, pdf: Buffer, pages: number): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'scan.pdf');
  const up = (await (await fetch(`${url}/v3/pdf`, { method: 'POST', headers: auth, body: form })).json()) as { pdf_id?: string; error?: string };
  if (!up.pdf_id) throw new Error(`/v3/pdf refused the scan: ${JSON.stringify(up)}`);
  const status = await waitFor(
    async () => {
      const s = (await (await fetch(`${url}/v3/pdf/${up.pdf_id}`, { headers: auth })).json()) as { status?: string };
      return (s.status === 'completed' || s.status === 'error') && s.status;
    },
    MS_PER_PAGE * pages + 60_000,
    2_000,
  );
  if (status !== 'completed') return '';
  return (await fetch(`${url}/v3/pdf/${up.pdf_id}.mmd`, { headers: auth })).text();
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
