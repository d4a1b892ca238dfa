import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ENLARGE_BELOW_BOND_PX, readOsra } from '../../../worker/chemistry/enlarge.js';
import { childCpuSeconds, type OsraStructure } from '../../../worker/chemistry/osra.js';
import { chooseStructures } from '../../../worker/chemistry/structures.js';
import { DISTRACTOR_KINDS } from './distractors.js';
import { evaluatePages, type PagesOutcome } from './pages.js';
import { type EvalImage, type Molecule, osraCachePath, pickMolecules, pickStereoMolecules, RENDERERS, renderSet, RESOLUTIONS } from './render.js';
import { imageTables, type ImageOutcome } from './report.js';

/**
 * `make eval-chem`: structure diagrams → SMILES, as the product reads them (OSRA under its limits,
 * read again enlarged when drawn small (worker/chemistry/enlarge.ts),
 * the acceptance rule of worker/chemistry/structures.ts, Open Babel's canonical SMILES).
 * Prints and writes models/eval/chem/RESULTS.md: exact canonical-SMILES match by renderer and
 * resolution, what fails by molecule feature, false positives by distractor kind, and the
 * detection precision and recall on PDF pages that mix structures with other figures.
 *
 * Usage: npx tsx models/eval/chem/run.ts [--sample] [--molecules N] [--stereo N] [--distractors N] [--heldout N] [--pages N]
 *   [--concurrency C] [--osra-cpu S] [--budget-minutes M] [--pages-only | --pages-cached]
 * OSRA reads one image at a time by default (then each image's CPU seconds are measured), under
 * EVAL_OSRA_CPU_SECONDS. Its raw answers are cached per image (models/eval/.cache/chem/osra-<key>.json,
 * saved every 10 images; a fresh file when OSRA's label lists or the enlargement rule change, osraCachePath), so an
 * interrupted run resumes where it stopped and changing the
 * acceptance rule re-scores in seconds. With a budget, images not read when it runs out are left
 * out of the tables and the report says how many.
 */

/**
 * `--sample`: a small set for development (30 molecules, 4 with stereo, 2 distractors and 1
 * held-out distractor of each kind, no pages) whose tables are printed and not written to RESULTS.md.
 */
const sample = process.argv.includes('--sample');
const SIZES: Record<string, number> = sample
  ? { molecules: 30, stereo: 4, distractors: 2, heldout: 1, pages: 0 }
  : { molecules: 150, stereo: 20, distractors: 10, heldout: 5, pages: 12 };
const arg = (name: string, fallback = SIZES[name]!) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const here = (...p: string[]) => join(import.meta.dirname, ...p);
const cacheDir = here('..', '.cache', 'chem');
/**
 * OSRA's CPU allowance here: far above the product's (OSRA_CPU_SECONDS), so a loaded machine or a
 * slow image is measured rather than cut off. `--osra-cpu S` changes it.
 */
const EVAL_OSRA_CPU_SECONDS = 60;

/**
 * One image's cached OSRA answer: its structures or why it was stopped, the CPU seconds it took
 * (null when not measured alone), and how many times larger it was read again (enlarge.ts).
 */
interface CachedRead {
  read: OsraStructure[] | string;
  cpu: number | null;
  enlarged?: { factor: number; read: OsraStructure[] };
}

async function main(): Promise<void> {
  const started = performance.now();
  await mkdir(cacheDir, { recursive: true });
  const molecules = [...(await pickMolecules(arg('molecules'))), ...(await pickStereoMolecules(cacheDir, arg('stereo')))];
  const images = await renderSet(cacheDir, molecules, arg('distractors'), arg('heldout'));
  if (process.argv.includes('--pages-only')) {
    const outcomes = await pagesOutcomes(molecules, arg('pages'));
    console.log(JSON.stringify(outcomes, null, 1));
    return;
  }
  console.log(`${molecules.length} molecules, ${images.length} images rendered (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  const rawPath = await osraCachePath(cacheDir, 'osra');
  const raw: Record<string, CachedRead> = JSON.parse(await readFile(rawPath, 'utf8').catch(() => '{}'));
  // Smallest files first: under a budget, what is left out is the slowest to read.
  const sizes = new Map(await Promise.all(images.map(async (img) => [img.path, (await stat(img.path)).size] as const)));
  const todo = images.filter((img) => raw[img.path] === undefined).sort((a, b) => sizes.get(a.path)! - sizes.get(b.path)!);
  const budgetEnds = started + arg('budget-minutes', Infinity) * 60_000;
  const cpuSeconds = arg('osra-cpu', EVAL_OSRA_CPU_SECONDS);
  const concurrency = Math.max(1, arg('concurrency', 1));
  console.log(`OSRA: ${todo.length} images to read (${images.length - todo.length} cached), ${concurrency} at a time, ${cpuSeconds} CPU s each at most`);
  let fresh = 0;
  const readOne = async (img: EvalImage) => {
    const cpuBefore = childCpuSeconds();
    const { first, enlarged } = await readOsra(await readFile(img.path), { cpuSeconds });
    // Children's CPU is credited when they are reaped: exact per image only when one runs at a time.
    const cpu = concurrency === 1 ? childCpuSeconds() - cpuBefore : null;
    raw[img.path] = { read: first.stopped ? first.message : first.structures, cpu };
    if (enlarged) raw[img.path]!.enlarged = { factor: enlarged.factor, read: enlarged.run.structures };
    if (++fresh % 10 === 0) {
      await writeFile(rawPath, JSON.stringify(raw));
      if (fresh % 50 === 0) console.log(`  OSRA: ${fresh} of ${todo.length} read`);
    }
  };
  const cpuAtStart = childCpuSeconds();
  const queue = [...todo];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let img = queue.shift(); img && performance.now() < budgetEnds; img = queue.shift()) await readOne(img);
    }),
  );
  const osraCpu = childCpuSeconds() - cpuAtStart;
  if (fresh) await writeFile(rawPath, JSON.stringify(raw));
  const outcomes: ImageOutcome[] = [];
  for (const img of images) if (raw[img.path] !== undefined) outcomes.push(await score(img, raw[img.path]!));
  await writeFailures(outcomes, raw);
  const unread = images.length - outcomes.length;
  const enlarged = images.filter((img) => raw[img.path]?.enlarged).length;
  const pageCount = arg('pages');
  const pages = pageCount > 0 ? await pagesOutcomes(molecules, pageCount) : [];
  const tables = imageTables(outcomes, RENDERERS, RESOLUTIONS, DISTRACTOR_KINDS, pages);
  console.log(`\n${tables}`);
  const facts = `${molecules.length} NCI molecules (${arg('stereo')} of them given stereo), ${arg('distractors')} distractors and ${arg('heldout')} held-out distractors of each kind, ${pageCount} pages (twice: with the distractors, with the held-out ones)${unread ? `; ${unread} images not read within the budget and left out` : ''}; OSRA ${fresh ? `${(osraCpu / fresh).toFixed(2)} CPU s an image over ${fresh} fresh reads` : 'answers from cache'}, ${enlarged} images read again enlarged (bonds under ${ENLARGE_BELOW_BOND_PX} px); total ${((performance.now() - started) / 1000).toFixed(0)} s`;
  if (sample) {
    console.log(`\nsample run, RESULTS.md left alone (${facts})`);
    return;
  }
  await writeFile(
    here('RESULTS.md'),
    `# Chemistry evaluation (\`make eval-chem\`)\n\nGenerated by models/eval/chem/run.ts; see README.md for the method. ${facts}.\n\n${tables}\n`,
  );
  console.log(`\nwrote models/eval/chem/RESULTS.md (${facts})`);
}

/**
 * The two page sets' outcomes. They are saved (models/eval/.cache/chem/pages-N.json); with
 * `--pages-cached` a saved run of the same size is reported instead of reading the pages again,
 * so they can be read by a second process while the first reads images: `--pages-only` reads
 * them, saves them and stops.
 */
async function pagesOutcomes(molecules: Molecule[], count: number): Promise<PagesOutcome[]> {
  const saved = join(cacheDir, `pages-${count}.json`);
  if (process.argv.includes('--pages-cached')) {
    const cached = await readFile(saved, 'utf8').catch(() => null);
    if (cached) return JSON.parse(cached) as PagesOutcome[];
  }
  const outcomes = [await evaluatePages(cacheDir, molecules, count), await evaluatePages(cacheDir, molecules, count, true)];
  await writeFile(saved, JSON.stringify(outcomes));
  return outcomes;
}

/**
 * The molecule images not read exactly, one a line (models/eval/.cache/chem/failures.tsv): image,
 * renderer, dpi, answer, what was answered, OSRA's readings as it is and enlarged (with the factor).
 */
async function writeFailures(outcomes: ImageOutcome[], raw: Record<string, CachedRead>): Promise<void> {
  const lines = ['image\trenderer\tdpi\tanswer\tanswered\tread\tenlarged'];
  const smiles = (read: OsraStructure[] | string | undefined) =>
    typeof read === 'string' ? read : (read ?? []).map((s) => `${s.smiles} ${s.score}`).join(' ; ');
  for (const { image, found } of outcomes) {
    if (!image.molecule || (found.length === 1 && found[0]!.smiles === image.molecule.canonical)) continue;
    const { read, enlarged } = raw[image.path]!;
    const again = enlarged ? `${enlarged.factor.toFixed(2)}x: ${smiles(enlarged.read)}` : '';
    lines.push([image.path, image.renderer, image.dpi, image.molecule.canonical, found.map((f) => f.smiles).join(' '), smiles(read), again].join('\t'));
  }
  await writeFile(join(cacheDir, 'failures.tsv'), lines.join('\n') + '\n');
}

/** What the product would answer for one image: the accepted, canonicalised structures. */
async function score(img: EvalImage, cached: CachedRead): Promise<ImageOutcome> {
  const found = typeof cached.read === 'string' ? [] : await chooseStructures(cached.read, cached.enlarged?.read, true, await readFile(img.path));
  return { image: img, found, stopped: typeof cached.read === 'string', cpuSeconds: cached.cpu };
}

await main();
