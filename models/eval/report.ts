import {
  classifyConstruct,
  constructNames,
  isExact,
  markdownTable,
  percent,
  rowDistance,
  summarise,
  type ScoredFormula,
} from '../../worker/engine/math/eval-metrics.js';
import type { Evaluation } from './evaluate.js';

/** RESULTS.md (the table, with the targets beside the numbers) and failures.md (worst cases by construct). */

export const TARGETS = {
  /** Exact match on printed formula images. */
  imageExact: 0.9,
  /** Exact match from born-digital PDF glyphs, where every symbol label is known. */
  pdfExact: 0.98,
  symbolAccuracy: 0.95,
  medianMs: 50,
} as const;

export interface RunFacts {
  date: string;
  commit: string;
  cpuModel: string;
  cores: number;
  /** CPUs the process may run on (Cpus_allowed_list), e.g. "0" under `taskset -c 0`. */
  affinity: string;
  node: string;
  formulas: number;
  corpusFormulas: number;
  renderCacheKey: string;
  renderedFromCache: boolean;
  renderSeconds: number;
  totalSeconds: number;
}

const mark = (met: boolean) => (met ? '✓' : '✗');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

function exactTarget(frontEnd: string): number | undefined {
  if (frontEnd.startsWith('PDF')) return TARGETS.pdfExact;
  if (frontEnd.startsWith('image')) return TARGETS.imageExact;
  return undefined;
}

function summaryRow(e: Evaluation, categories: readonly string[]): string[] {
  if (e.unavailable) return [e.frontEnd, '–', 'not available', '', '–', '–', '', '–', '–', '', '–'];
  const s = summarise(e.rows, categories);
  const product = e.frontEnd.startsWith('/v3');
  const target = exactTarget(e.frontEnd);
  const exact = target === undefined ? percent(s.exactRate) : `${percent(s.exactRate)} ${mark(s.exactRate >= target)}`;
  const symbolRate = e.symbols && e.symbols.truth > 0 ? e.symbols.agreed / e.symbols.truth : Number.NaN;
  const symbols = e.symbols
    ? `${percent(symbolRate)} ${mark(symbolRate >= TARGETS.symbolAccuracy)} (${e.symbols.agreed}/${e.symbols.truth}, ${e.symbols.matched} boxes matched)`
    : '–';
  return [
    e.frontEnd,
    String(s.count),
    exact,
    target === undefined ? '' : `≥ ${percent(target)}`,
    s.meanDistance.toFixed(3),
    symbols,
    e.frontEnd.startsWith('image') ? `≥ ${percent(TARGETS.symbolAccuracy)}` : '',
    // Product rows time a whole HTTP request (text and maths read of the page): the engine's target is not theirs.
    product ? ms(s.medianMs) : `${ms(s.medianMs)} ${mark(s.medianMs < TARGETS.medianMs)}`,
    ms(s.p90Ms),
    product ? '' : `< ${TARGETS.medianMs}`,
    String(s.errors),
  ];
}

/** The results table, the per-category table and the notes on rows that could not run. */
export function resultsTables(evaluations: readonly Evaluation[], categories: readonly string[]): string {
  const summary = markdownTable(
    ['Front end', 'Formulas', 'Exact match', 'Target', 'Mean edit distance', 'Symbol accuracy', 'Target', 'Median ms', 'p90 ms', 'Target', 'Errors'],
    evaluations.map((e) => summaryRow(e, categories)),
  );
  const ran = evaluations.filter((e) => !e.unavailable);
  const perCategory = markdownTable(
    ['Exact match by category', ...categories],
    ran.map((e) => {
      const s = summarise(e.rows, categories);
      return [e.frontEnd, ...categories.map((c) => percent(s.exactByCategory[c]))];
    }),
  );
  const notes = evaluations.flatMap((e) => [
    ...(e.unavailable ? [`- ${e.frontEnd}: not available — ${e.unavailable}.`] : []),
    ...(e.symbolsUnavailable ? [`- ${e.frontEnd}, symbol accuracy: not available — ${e.symbolsUnavailable}.`] : []),
  ]);
  return [summary, '', ...(ran.length > 0 ? [perCategory, ''] : []), ...notes].join('\n');
}

export function resultsMarkdown(evaluations: readonly Evaluation[], categories: readonly string[], facts: RunFacts): string {
  return `# Maths recogniser evaluation

Written by \`make eval-math\` (models/eval/run.ts); see models/eval/README.md for how the set is made and scored.

- Date: ${facts.date}
- Commit: ${facts.commit} (HEAD; uncommitted changes in the working tree are not reflected in this id)
- Machine: ${facts.cores} cores (${facts.cpuModel}), Node ${facts.node}; the run was allowed on CPU ${facts.affinity}${facts.affinity === '0' ? ' (pinned to one core)' : ' (NOT pinned to one core: timings are optimistic)'}
- Corpus: ${facts.formulas} of the ${facts.corpusFormulas} hand-written formulas in models/eval/formulas.tsv, rendered with pdflatex (Computer Modern) and pdftoppm; render cache ${facts.renderCacheKey} (${facts.renderedFromCache ? 'reused' : `built in ${facts.renderSeconds.toFixed(1)} s`})
- Wall time of the whole run: ${facts.totalSeconds.toFixed(1)} s

Exact match and edit distance compare both sides after \`normaliseLatex\` (worker/engine/math/latex-normalise.ts); edit distance is Levenshtein over LaTeX tokens divided by the longer sequence. Symbol accuracy counts the PDF glyphs of a page whose overlapping image symbol carries the same label. Timings are per formula on the CPUs above, after one untimed warm-up call, and exclude reading the page from disk. ✓/✗ compare with the target beside the number.

${resultsTables(evaluations, categories)}
`;
}

/** Worst cases shown per front end in each construct group. */
const WORST_PER_GROUP = 5;

/** Most frequent symbol disagreements listed per image row. */
const TOP_CONFUSIONS = 20;

const code = (latex: string) => (latex === '' ? '(empty)' : `\`${latex.replaceAll('`', "'")}\``);

export function failuresMarkdown(evaluations: readonly Evaluation[], facts: RunFacts): string {
  const ran = evaluations.filter((e) => !e.unavailable);
  // Thrown errors grouped by message: one missing model would otherwise fill hundreds of rows.
  const errors = new Map<string, { frontEnd: string; error: string; ids: string[] }>();
  for (const e of ran) {
    for (const r of e.rows.filter((row) => row.error !== undefined)) {
      const key = `${e.frontEnd}\n${r.error}`;
      const group = errors.get(key) ?? { frontEnd: e.frontEnd, error: r.error ?? '', ids: [] };
      group.ids.push(r.id);
      errors.set(key, group);
    }
  }
  const sections: string[] = [];
  if (errors.size > 0) {
    const shownIds = (ids: string[]) => `${ids.length}: ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''}`;
    sections.push(
      '## Thrown errors',
      '',
      markdownTable(
        ['Front end', 'Error', 'Formulas'],
        [...errors.values()].map((g) => [g.frontEnd, g.error, shownIds(g.ids)]),
      ),
      '',
    );
  }
  const confusionTables = ran.flatMap((e) => {
    const top = Object.entries(e.symbols?.confusions ?? {})
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_CONFUSIONS);
    return top.length === 0
      ? []
      : [
          `### ${e.frontEnd}`,
          '',
          markdownTable(
            ['PDF glyph → image symbol', 'Count'],
            top.map(([k, n]) => [code(k), String(n)]),
          ),
          '',
        ];
  });
  if (confusionTables.length > 0) {
    sections.push('## Symbol confusions (image front end against the PDF glyphs of the same page)', '', ...confusionTables);
  }
  for (const construct of constructNames()) {
    const inGroup = (e: Evaluation) => e.rows.filter((r) => classifyConstruct(r.source) === construct);
    // Counts include formulas that threw; the table shows recognised ones (thrown errors have their own section).
    const wrong = (e: Evaluation) => inGroup(e).filter((r) => !isExact(r));
    if (ran.every((e) => wrong(e).length === 0)) continue;
    const counts = ran.map((e) => `${e.frontEnd} ${wrong(e).length}/${inGroup(e).length}`).join(', ');
    const worst = ran.flatMap((e) =>
      wrong(e)
        .filter((r) => r.error === undefined)
        .sort((a, b) => rowDistance(b) - rowDistance(a))
        .slice(0, WORST_PER_GROUP)
        .map((r: ScoredFormula) => [e.frontEnd, r.id, code(r.expected), code(r.got), rowDistance(r).toFixed(2)]),
    );
    sections.push(`## ${construct} — wrong: ${counts}`, '', markdownTable(['Front end', 'id', 'Expected', 'Got', 'Edit distance'], worst), '');
  }
  return `# Maths recogniser: worst cases

From the evaluation of ${facts.date} (commit ${facts.commit}); the figures are in RESULTS.md. Expected and got are both after \`normaliseLatex\`. Each formula is filed under the hardest construct it contains (\`classifyConstruct\` in worker/engine/math/eval-metrics.ts); a group's heading counts the wrong formulas per front end (thrown ones included) and its table lists up to ${WORST_PER_GROUP} recognised cases per front end, largest edit distance first.

${sections.length > 0 ? sections.join('\n') : 'No failures.\n'}`;
}
