import type { DistractorKind } from './distractors.js';
import type { PagesOutcome } from './pages.js';
import type { EvalImage, Renderer } from './render.js';

/** The evaluation's tables, as Markdown. */

export interface ImageOutcome {
  image: EvalImage;
  /** Canonical SMILES of the structures the product accepted. */
  found: string[];
  /** OSRA was stopped at its limit. */
  stopped: boolean;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');
const withoutStereo = (s: string) =>
  s
    .replace(/[/\\]/g, '')
    .replace(/@+/g, '')
    .replace(/\[([A-Z][a-z]?)H?\]/g, '$1');

/** A molecule read right: exactly one structure, equal to the answer. */
const exact = (o: ImageOutcome) => o.found.length === 1 && o.found[0] === o.image.molecule!.canonical;
const sameSkeleton = (o: ImageOutcome) => o.found.length === 1 && withoutStereo(o.found[0]!) === withoutStereo(o.image.molecule!.canonical);

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
  renderers: readonly Renderer[],
  resolutions: readonly number[],
  kinds: readonly DistractorKind[],
  pages: PagesOutcome,
): string {
  const mols = outcomes.filter((o) => o.image.molecule);
  const others = outcomes.filter((o) => o.image.distractor);
  const out: string[] = [];
  out.push(
    '## Structure images → SMILES',
    '',
    '| renderer | dpi | images | exact canonical SMILES | same without stereo | no structure reported | wrong structure |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of renderers)
    for (const dpi of resolutions) {
      const set = mols.filter((o) => o.image.renderer === r && o.image.dpi === dpi);
      const none = set.filter((o) => o.found.length === 0).length;
      const ok = set.filter(exact).length;
      out.push(
        `| ${r} | ${dpi} | ${set.length} | ${pct(ok, set.length)} | ${pct(set.filter(sameSkeleton).length, set.length)} | ${pct(none, set.length)} | ${pct(set.length - ok - none, set.length)} |`,
      );
    }
  out.push(
    '',
    '## Exact match by what the molecule holds (all renderers and resolutions)',
    '',
    '| feature | images | exact | same without stereo |',
    '|---|---|---|---|',
  );
  for (const [name, has] of FEATURES) {
    const set = mols.filter((o) => has(o.image.molecule!.canonical));
    out.push(`| ${name} | ${set.length} | ${pct(set.filter(exact).length, set.length)} | ${pct(set.filter(sameSkeleton).length, set.length)} |`);
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
  out.push('', '## PDF pages mixing structures with plots, geometry, tables and circuits (/v3/pdf pipeline)', '');
  out.push(
    '| pages | structures drawn | other figures | reported as `<smiles>` | of them structures | precision | recall | exact SMILES of found |',
    '|---|---|---|---|---|---|---|---|',
  );
  out.push(
    `| ${pages.pages} | ${pages.structures} | ${pages.others} | ${pages.reported} | ${pages.truePositives} | ${pct(pages.truePositives, pages.reported)} | ${pct(pages.truePositives, pages.structures)} | ${pct(pages.exact, pages.truePositives)} |`,
  );
  return out.join('\n');
}
