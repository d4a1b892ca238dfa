import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { markdownTable, percent } from '../../../worker/engine/math/eval-metrics.js';
import { convertDocument } from '../../../worker/document/pipeline/index.js';
import { findRealDocuments, TEXDOC_ROOT } from './documents.js';
import { mmdDisplays } from './normalise.js';
import { CLOSE_DISTANCE, constructTable, scoreDocument, type ScoredDisplay } from './score.js';

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
const TARGET_CLOSE = 0.9;
const TARGET_EXACT = 0.7;

async function documentMmd(pdfPath: string, name: string, reuse: boolean): Promise<{ mmd: string; seconds: number }> {
  const cached = `${CACHE}/${name.replaceAll('/', '__')}.mmd`;
  if (reuse && existsSync(cached)) return { mmd: await readFile(cached, 'utf8'), seconds: 0 };
  const started = performance.now();
  const { mmd } = await convertDocument(pdfPath);
  await writeFile(cached, mmd);
  return { mmd, seconds: (performance.now() - started) / 1000 };
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here('.'), encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** Shortened, with control characters (a PDF's unmapped glyph codes) shown as U+FFFD so the report stays text. */
const truncate = (text: string, length = 160) => {
  const shown = text.replace(/\p{Cc}/gu, '\uFFFD');
  return shown.length > length ? `${shown.slice(0, length)}…` : shown;
};

function resultsMarkdown(rows: ScoredDisplay[], documents: { name: string; pages: number; displays: number; seconds: number }[]): string {
  const table = constructTable(rows);
  const all = table.at(-1)!;
  const mark = (met: boolean) => (met ? '✓' : '✗');
  return [
    '# Real-document maths evaluation (texlive-doc)',
    '',
    `Commit ${commit()}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ${documents.length} documents, ${rows.length} display equations`,
    `(how the set is built and scored: models/eval/texdoc/README.md). Targets: ≥ ${percent(TARGET_CLOSE)} within distance ${CLOSE_DISTANCE}, ≥ ${percent(TARGET_EXACT)} exact.`,
    '',
    `**All displays: ${percent(all.exact)} exact ${mark(all.exact >= TARGET_EXACT)}, ${percent(all.close)} within ${CLOSE_DISTANCE} ${mark(all.close >= TARGET_CLOSE)}, mean distance ${all.meanDistance.toFixed(3)}.**`,
    '',
    markdownTable(
      ['construct', 'displays', 'exact', `distance ≤ ${CLOSE_DISTANCE}`, 'mean distance'],
      table.map((r) => [r.construct, String(r.count), percent(r.exact), percent(r.close), r.meanDistance.toFixed(3)]),
    ),
    '',
    '## Documents',
    '',
    markdownTable(
      ['document', 'pages', 'displays', 'exact', 'pipeline s'],
      documents.map((d) => {
        const own = rows.filter((r) => r.document === d.name);
        return [d.name, String(d.pages), String(d.displays), percent(own.filter((r) => r.exact).length / Math.max(1, own.length)), d.seconds.toFixed(1)];
      }),
    ),
    '',
  ].join('\n');
}

function failuresMarkdown(rows: ScoredDisplay[]): string {
  const lines = ['# Real-document maths: worst displays by construct', ''];
  for (const { construct } of constructTable(rows).slice(0, -1)) {
    const wrong = rows.filter((r) => r.constructs.includes(construct) && !r.exact).sort((a, b) => b.distance - a.distance);
    if (wrong.length === 0) continue;
    lines.push(`## ${construct} (${wrong.length} wrong)`, '');
    for (const r of wrong.slice(0, 8)) {
      lines.push(
        `- ${r.document} (${r.environment}), distance ${r.distance.toFixed(2)}`,
        `  - expected: \`${truncate(r.expected)}\``,
        `  - got: \`${truncate(r.got ?? '(no display left)')}\``,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
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
  const facts: { name: string; pages: number; displays: number; seconds: number }[] = [];
  for (const document of documents) {
    const { mmd, seconds } = await documentMmd(document.pdfPath, document.name, values.reuse ?? false);
    const scored = scoreDocument(document.name, document.displays, mmdDisplays(mmd));
    rows.push(...scored);
    facts.push({ name: document.name, pages: document.pages, displays: document.displays.length, seconds });
    console.log(`${document.name}: ${scored.filter((r) => r.exact).length}/${scored.length} exact (${seconds.toFixed(1)} s)`);
  }
  await writeFile(`${CACHE}/rows.json`, JSON.stringify(rows, null, 1));
  const table = constructTable(rows);
  console.log(
    `\n${markdownTable(
      ['construct', 'displays', 'exact', `≤ ${CLOSE_DISTANCE}`, 'mean'],
      table.map((r) => [r.construct, String(r.count), percent(r.exact), percent(r.close), r.meanDistance.toFixed(3)]),
    )}`,
  );
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
