import sharp from 'sharp';
import { OSRA_CPU_SECONDS, type OsraLimits, type OsraRun, type OsraStructure, runOsra } from './osra.js';

/**
 * OSRA at a scale it reads well. It misreads drawings whose bonds are short: at 30 px (a 0.2 inch
 * bond at 150 dpi) labels are 6 px high and close double-bond lines merge, where the same drawings
 * at 60 px read far better (models/eval/chem: RDKit 29 % exact at 150 dpi, 55 % at 300 dpi). The
 * scale of a drawing is known only once OSRA has found its bonds, so the image is read as it is;
 * when the best reading's average bond is shorter than ENLARGE_BELOW_BOND_PX, the image is
 * enlarged (Lanczos) so its bonds come out near TARGET_BOND_PX and read again. The enlarged
 * reading (its lengths and boxes given back in the image's own pixels) is answered when its
 * accepted structures score at least as high as the first's (chooseStructures, structures.ts).
 *
 * Both runs share one CPU allowance (`cpuSeconds`, the product's OSRA_CPU_SECONDS): the second
 * gets what the first left (`cpuSpent`, an upper bound), and is not started with less than a
 * second; it also shares the caller's wall time. The enlarged image stays under
 * MAX_ENLARGED_PIXELS. An image OSRA finds nothing in is not read again.
 */

export const ENLARGE_BELOW_BOND_PX = 40;
/** The bond length of the 0.2 inch bonds of a 300 dpi drawing. */
export const TARGET_BOND_PX = 60;
/** At most this many times larger on a side. */
const MAX_FACTOR = 3;
/** Less than this much larger is not worth a second run. */
const MIN_FACTOR = 1.25;
/**
 * At most this many pixels enlarged (2000 px square; a molecule drawn at 150 dpi is under 700 px
 * square): OSRA's time grows with the pixels, and the second run of a large figure is mostly spent
 * on what is no molecule.
 */
export const MAX_ENLARGED_PIXELS = 4_000_000;
/** Less wall time than this left is not worth a second run. */
const MIN_WALL_MS = 1000;

export interface OsraReadings {
  /** OSRA's run on the image as it is. */
  first: OsraRun;
  /** Its run on the image enlarged `factor` times, when the first's bonds were short; lengths and boxes in the image's own pixels. */
  enlarged?: { factor: number; run: OsraRun };
}

/** The factor to enlarge an image by, given OSRA's readings of it; null when it reads as it is. */
export function enlargement(structures: OsraStructure[], width: number, height: number): number | null {
  if (!structures.length) return null;
  const best = structures.reduce((a, b) => (b.score > a.score ? b : a));
  if (best.bondLengthPx >= ENLARGE_BELOW_BOND_PX || best.bondLengthPx <= 0) return null;
  const factor = Math.min(MAX_FACTOR, TARGET_BOND_PX / best.bondLengthPx, Math.sqrt(MAX_ENLARGED_PIXELS / (width * height)));
  return factor >= MIN_FACTOR ? factor : null;
}

/** A reading of the enlarged image in the pixels of the original. */
function shrink(s: OsraStructure, factor: number): OsraStructure {
  const px = (v: number) => Math.round(v / factor);
  return { ...s, bondLengthPx: s.bondLengthPx / factor, box: { x: px(s.box.x), y: px(s.box.y), width: px(s.box.width), height: px(s.box.height) } };
}

export interface ReadOsraOptions extends OsraLimits {
  /** Whether a first reading is worth a second, enlarged one (a document figure's: only where it could be chemistry). @defaultValue always */
  enlargeIf?: (first: OsraStructure[]) => boolean;
}

/** OSRA's readings of a PNG, and of it enlarged when its bonds are short; never throws for what OSRA does. */
export async function readOsra(png: Buffer, limits: ReadOsraOptions = {}): Promise<OsraReadings> {
  const started = performance.now();
  const first = await runOsra(png, limits);
  if (first.stopped || (limits.enlargeIf && !limits.enlargeIf(first.structures))) return { first };
  // OSRA read it, so it decodes; should sharp still refuse it, the first reading stands.
  const { width, height } = await sharp(png)
    .metadata()
    .catch(() => ({ width: undefined, height: undefined }));
  const factor = width && height ? enlargement(first.structures, width, height) : null;
  const cpuLeft = Math.floor((limits.cpuSeconds ?? OSRA_CPU_SECONDS) - first.cpuSpent);
  const wallMs = limits.wallMs === undefined ? undefined : limits.wallMs - (performance.now() - started);
  if (!factor || cpuLeft < 1 || (wallMs !== undefined && wallMs < MIN_WALL_MS)) return { first };
  const enlarged = await sharp(png)
    .resize(Math.round(width! * factor), Math.round(height! * factor), { kernel: 'lanczos3' })
    .png()
    .toBuffer()
    .catch(() => null);
  if (!enlarged) return { first };
  const run = await runOsra(enlarged, { memoryBytes: limits.memoryBytes, cpuSeconds: cpuLeft, wallMs });
  return { first, enlarged: { factor, run: run.stopped ? run : { ...run, structures: run.structures.map((s) => shrink(s, factor)) } } };
}
