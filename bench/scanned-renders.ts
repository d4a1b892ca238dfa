/**
 * Test pages for the scanned-page bench: real documents (Debian's TeX Live documentation, which
 * `make bench` installs) rendered at 200 dpi as a flatbed scanner would, clean and with scanner
 * noise and a slight skew, each with the text its PDF's text layer holds. amsmath's own documents
 * (testmath, amsldoc, subeqn) are held out of tuning and never used here.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);
const DOCS = '/usr/share/doc/texlive-doc';

/** Pages of prose, lists, code and a little maths, from four packages' manuals. */
export const BENCH_PAGES: { pdf: string; page: number }[] = [
  { pdf: `${DOCS}/bibtex/base/btxdoc.pdf`, page: 2 },
  { pdf: `${DOCS}/bibtex/base/btxdoc.pdf`, page: 7 },
  { pdf: `${DOCS}/latex/koma-script/scrguide-en.pdf`, page: 22 },
  { pdf: `${DOCS}/latex/koma-script/scrguide-en.pdf`, page: 61 },
  { pdf: `${DOCS}/fonts/txfonts/txfontsdoc.pdf`, page: 2 },
  { pdf: `${DOCS}/latex/euro/euro.pdf`, page: 3 },
];

export const SCAN_BENCH_DPI = 200;

export interface BenchPage {
  name: string;
  /** What the page's text layer says (pdftotext, reading order). */
  truth: string;
  clean: Buffer;
  noisy: Buffer;
  /** Degrees the noisy render is turned by. */
  skew: number;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a scanner does to a page, each of which `noisySkewed` can leave out to measure what it costs. */
export interface ScannerEffects {
  /** Turned by the skew onto white. */
  turn: boolean;
  /** Softened by a 0.7 px Gaussian blur. */
  blur: boolean;
  /** Gaussian sensor noise of σ 18 grey levels. */
  grain: boolean;
  /** Sparse dark specks of dust. */
  dust: boolean;
}

export const ALL_SCANNER_EFFECTS: Readonly<ScannerEffects> = { turn: true, blur: true, grain: true, dust: true };

/**
 * A scanner's take on a clean grey render: turned by `skew` degrees onto white, softened, with
 * Gaussian sensor noise (σ 18 grey levels) and sparse dust specks. `effects` leaves some out; the
 * random draws are the same either way, so a speck lands where it would with every effect on.
 */
export async function noisySkewed(clean: Buffer, skew: number, seed: number, effects: Readonly<ScannerEffects> = ALL_SCANNER_EFFECTS): Promise<Buffer> {
  let scan = sharp(clean).greyscale();
  if (effects.turn) scan = scan.rotate(skew, { background: '#ffffff' });
  if (effects.blur) scan = scan.blur(0.7);
  const { data, info } = await scan.raw().toBuffer({ resolveWithObject: true });
  const rnd = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  for (let i = 0; i < data.length; i++) {
    const speck = rnd() < 0.0015 ? -120 : 0;
    const grain = 18 * gauss();
    data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + (effects.grain ? grain : 0) + (effects.dust ? speck : 0))));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

/** The skew of the `index`th scanned render, in degrees: ±0.5, ±0.75 or ±1, alternating in sign. */
export function scanSkew(index: number): number {
  return (index % 2 ? -1 : 1) * (0.5 + (index % 3) * 0.25);
}

export async function renderBenchPages(dir: string, pages = BENCH_PAGES): Promise<BenchPage[]> {
  const out: BenchPage[] = [];
  for (const [i, { pdf, page }] of pages.entries()) {
    const base = join(dir, `page${i}`);
    await run('pdftoppm', ['-r', String(SCAN_BENCH_DPI), '-f', String(page), '-l', String(page), '-gray', '-png', '-singlefile', pdf, base]);
    const { stdout: truth } = await run('pdftotext', ['-f', String(page), '-l', String(page), '-enc', 'UTF-8', pdf, '-'], { maxBuffer: 16 << 20 });
    const clean = await sharp(`${base}.png`).toBuffer();
    const skew = scanSkew(i);
    out.push({ name: `${pdf.split('/').pop()}:${page}`, truth, clean, noisy: await noisySkewed(clean, skew, 1000 + i), skew });
  }
  return out;
}
