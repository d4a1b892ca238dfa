import type { ChemicalStructure } from '../../../core/chemistry.js';
import type { DistractorKind } from './distractors.js';
import { HELDOUT_KINDS } from './heldout.js';
import type { PagesOutcome } from './pages.js';
import { ABBREVIATED, type EvalImage, type Renderer } from './render.js';

/** The evaluation's tables, as Markdown. */

export interface ImageOutcome {
  image: EvalImage;
  /** The structures the product accepted, canonicalised (SMILES and InChI). */
  found: ChemicalStructure[];
  /** OSRA was stopped at its limit. */
  stopped: boolean;
  /** OSRA's CPU seconds on the image, when measured. */
  cpuSeconds: number | null;
}

/** False positives on the held-out distractors (heldout.ts), and the precision they give with the molecules found. */
function heldoutTable(outcomes: ImageOutcome[], resolutions: readonly number[], truePositives: number): string[] {
  const held = outcomes.filter((o) => o.image.heldout);
  if (!held.length) return [];
  const out = [
    '',
    '## Held-out distractors (gnuplot, Graphviz, LaTeX picture; made after the rule, never tuned on)',
    '',
    `| kind | ${resolutions.map((d) => `${d} dpi`).join(' | ')} |`,
    `|---|${resolutions.map(() => '---').join('|')}|`,
  ];
  for (const k of HELDOUT_KINDS) {
    const cells = resolutions.map((dpi) => {
      const set = held.filter((o) => o.image.heldout === k && o.image.dpi === dpi);
      return `${set.filter((o) => o.found.length > 0).length} / ${set.length}`;
    });
    out.push(`| ${k} | ${cells.join(' | ')} |`);
  }
  const fp = held.filter((o) => o.found.length > 0).length;
  out.push('', `Held-out: ${fp} of ${held.length} reported as molecules; with the molecule images above, precision ${pct(truePositives, truePositives + fp)}.`);
  return out;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** OSRA's CPU seconds per image, by what the image is and its resolution. */
function cpuTable(outcomes: ImageOutcome[], resolutions: readonly number[]): string[] {
  const out = [
    '',
    '## OSRA CPU seconds per image (read alone)',
    '',
    '| images | dpi | measured | median | 95th percentile | max |',
    '|---|---|---|---|---|---|',
  ];
  for (const [name, pick] of [
    ['structures', (o: ImageOutcome) => !!o.image.molecule],
    ['distractors', (o: ImageOutcome) => !!o.image.distractor],
  ] as const)
    for (const dpi of resolutions) {
      const cpu = outcomes
        .filter((o) => pick(o) && o.image.dpi === dpi && o.cpuSeconds !== null)
        .map((o) => o.cpuSeconds!)
        .sort((a, b) => a - b);
      if (cpu.length)
        out.push(`| ${name} | ${dpi} | ${cpu.length} | ${quantile(cpu, 0.5).toFixed(2)} | ${quantile(cpu, 0.95).toFixed(2)} | ${cpu.at(-1)!.toFixed(2)} |`);
    }
  return out;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');
const withoutStereo = (s: string) =>
  s
    .replace(/[/\\]/g, '')
    .replace(/@+/g, '')
    .replace(/\[([A-Z][a-z]?)H?\]/g, '$1');

/** A molecule read right: exactly one structure, equal to the answer. */
const exact = (o: ImageOutcome) => o.found.length === 1 && o.found[0]!.smiles === o.image.molecule!.canonical;
const sameSkeleton = (o: ImageOutcome) => o.found.length === 1 && withoutStereo(o.found[0]!.smiles) === withoutStereo(o.image.molecule!.canonical);
/** Same standard InChI: forgives a nitro drawn pentavalent or charge-separated, and tautomers InChI merges. */
const sameInchi = (o: ImageOutcome) => o.found.length === 1 && !!o.found[0]!.inchi && o.found[0]!.inchi === o.image.molecule!.inchi;

/** Features a drawing of the molecule shows, for the failure table. */
const FEATURES: [string, (smiles: string) => boolean][] = [
  ['stereo (wedges, hashes, E/Z)', (s) => /[@/\\]/.test(s)],
  ['charges', (s) => /[+-]\]/.test(s) || /\[[^\]]*[+-]/.test(s)],
  ['halogens (F, Cl, Br, I)', (s) => /F|Cl|Br|I/.test(s)],
  ['S or P', (s) => /S|s|P/.test(s)],
  ['no ring', (s) => !/\d/.test(s.replace(/\[[^\]]*\]/g, ''))],
  ['three or more rings', (s) => new Set(s.replace(/\[[^\]]*\]/g, '').match(/\d/g) ?? []).size >= 3],
  ['none of the above', (s) => !/[@/\\+\-FClBrISsP]/.test(s) && /\d/.test(s)],
];

export function imageTables(
  outcomes: ImageOutcome[],
  renderers: readonly Exclude<Renderer, typeof ABBREVIATED>[],
  resolutions: readonly number[],
  kinds: readonly DistractorKind[],
  pages: PagesOutcome[],
): string {
  const mols = outcomes.filter((o) => o.image.molecule);
  const others = outcomes.filter((o) => o.image.distractor);
  const out: string[] = [];
  out.push(
    '## Structure images → SMILES',
    '',
    '| renderer | dpi | images | exact canonical SMILES | same InChI | same without stereo | no structure reported | wrong structure |',
    '|---|---|---|---|---|---|---|---|',
  );
  const rows: [string, (o: ImageOutcome) => boolean][] = [
    ...renderers.map((r): [string, (o: ImageOutcome) => boolean] => [r, (o) => o.image.renderer === r && !o.image.molecule!.stereo]),
    ['stereo: rdkit (wedges, hashes)', (o) => o.image.renderer === 'rdkit' && !!o.image.molecule!.stereo],
    ['stereo: openbabel', (o) => o.image.renderer === 'openbabel' && !!o.image.molecule!.stereo],
    [`abbreviations: ${ABBREVIATED}`, (o) => o.image.renderer === ABBREVIATED],
  ];
  for (const [r, inRow] of rows)
    for (const dpi of resolutions) {
      const set = mols.filter((o) => inRow(o) && o.image.dpi === dpi);
      if (!set.length) continue;
      const none = set.filter((o) => o.found.length === 0).length;
      const ok = set.filter(exact).length;
      out.push(
        `| ${r} | ${dpi} | ${set.length} | ${pct(ok, set.length)} | ${pct(set.filter(sameInchi).length, set.length)} | ${pct(set.filter(sameSkeleton).length, set.length)} | ${pct(none, set.length)} | ${pct(set.length - ok - none, set.length)} |`,
      );
    }
  out.push(
    '',
    '## Exact match by what the molecule holds (every molecule image: all renderers and resolutions)',
    '',
    '| feature | images | exact | same InChI | same without stereo |',
    '|---|---|---|---|---|',
  );
  for (const [name, has] of FEATURES) {
    const set = mols.filter((o) => has(o.image.molecule!.canonical));
    out.push(
      `| ${name} | ${set.length} | ${pct(set.filter(exact).length, set.length)} | ${pct(set.filter(sameInchi).length, set.length)} | ${pct(set.filter(sameSkeleton).length, set.length)} |`,
    );
  }
  out.push(
    '',
    '## Distractors reported as molecules (false positives)',
    '',
    `| kind | ${resolutions.map((d) => `${d} dpi`).join(' | ')} |`,
    `|---|${resolutions.map(() => '---').join('|')}|`,
  );
  for (const k of kinds) {
    const cells = resolutions.map((dpi) => {
      const set = others.filter((o) => o.image.distractor === k && o.image.dpi === dpi);
      return `${set.filter((o) => o.found.length > 0).length} / ${set.length}`;
    });
    out.push(`| ${k} | ${cells.join(' | ')} |`);
  }
  const tp = mols.filter((o) => o.found.length > 0).length;
  const fp = others.filter((o) => o.found.length > 0).length;
  const stopped = outcomes.filter((o) => o.stopped).length;
  out.push(
    '',
    `Image-level detection over all images: precision ${pct(tp, tp + fp)}, recall ${pct(tp, mols.length)}; OSRA stopped at its limit on ${stopped} images.`,
  );
  out.push(...heldoutTable(outcomes, resolutions, tp));
  out.push(...cpuTable(outcomes, resolutions));
  if (!pages.length) return out.join('\n');
  out.push('', '## PDF pages mixing structures with plots, geometry, tables and circuits (/v3/pdf pipeline, product limits)', '');
  out.push(
    '| other figures | pages | structures drawn | other figures | reported as `<smiles>` | of them structures | precision | recall | exact SMILES of found | CPU s a page: pipeline + programs |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const p of pages)
    out.push(
      `| ${p.heldout ? 'held-out (gnuplot, Graphviz, LaTeX)' : 'distractors.ts (SVG)'} | ${p.pages} | ${p.structures} | ${p.others} | ${p.reported} | ${p.truePositives} | ${pct(p.truePositives, p.reported)} | ${pct(p.truePositives, p.structures)} | ${pct(p.exact, p.truePositives)} | ${p.cpuPerPage.own.toFixed(2)} + ${p.cpuPerPage.programs.toFixed(2)} |`,
    );
  return out.join('\n');
}
