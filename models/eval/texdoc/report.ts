import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { markdownTable, percent } from '../../../worker/engine/math/eval-metrics.js';
import { CLOSE_DISTANCE, constructTable, type ScoredDisplay } from './score.js';

/** The reports of the real-document evaluation (run.ts, born-digital; scanned.ts, scanned copies). */

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
export const TARGET_CLOSE = 0.9;
export const TARGET_EXACT = 0.7;

export interface DocumentFacts {
  name: string;
  pages: number;
  displays: number;
  seconds: number;
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

/** The per-construct table as a run prints it to the console. */
export function constructConsoleTable(rows: ScoredDisplay[]): string {
  return markdownTable(
    ['construct', 'displays', 'exact', `≤ ${CLOSE_DISTANCE}`, 'mean'],
    constructTable(rows).map((r) => [r.construct, String(r.count), percent(r.exact), percent(r.close), r.meanDistance.toFixed(3)]),
  );
}

/** The results page: the construct table and the documents, under `title` with `intro` (a line on how the documents were read). */
export function resultsMarkdown(rows: ScoredDisplay[], documents: DocumentFacts[], title = 'Real-document maths evaluation (texlive-doc)', intro = ''): string {
  const table = constructTable(rows);
  const all = table.at(-1)!;
  const mark = (met: boolean) => (met ? '✓' : '✗');
  return [
    `# ${title}`,
    '',
    ...(intro ? [intro, ''] : []),
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

export function failuresMarkdown(rows: ScoredDisplay[]): string {
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
