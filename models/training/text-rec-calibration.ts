/**
 * Line crops for checking (and calibrating, with --int8) the CPU text recogniser (text_rec_cpu.py): pages
 * of TeX Live manuals that the scanned-page bench does not use (nor amsmath's own documents,
 * which are held out), rendered at 200 dpi clean and noisy-skewed as the bench renders its own
 * (bench/scanned-renders.ts), detected and cropped by the engine's own code, exactly as
 * TextRecognizer feeds the recogniser. Writes data/text-rec-crops.bin: per crop a little-endian
 * uint32 width, then 48 × width × 3 bytes of RGB.
 *
 *   npx tsx models/training/text-rec-calibration.ts [out.bin]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBenchPages } from '../../bench/scanned-renders.js';
import { createSession, loadModelFile } from '../../worker/engine/models.js';
import { measureSkew, MIN_CORRECTED_SKEW, turnImage } from '../../worker/engine/text/deskew.js';
import { detectLines } from '../../worker/engine/text/detect.js';
import { decodeImage, readingScale } from '../../worker/engine/text/image.js';
import { cropLine } from '../../worker/engine/text/recognize.js';

const DOCS = '/usr/share/doc/texlive-doc';
/** Prose, tables, code and lists; none of them is a bench page. */
export const CALIBRATION_PAGES = [
  { pdf: `${DOCS}/latex/booktabs/booktabs.pdf`, page: 3 },
  { pdf: `${DOCS}/latex/caption/caption.pdf`, page: 9 },
  { pdf: `${DOCS}/latex/koma-script/scrguide-en.pdf`, page: 40 },
  { pdf: `${DOCS}/bibtex/base/btxdoc.pdf`, page: 4 },
  { pdf: `${DOCS}/fonts/txfonts/txfontsdoc.pdf`, page: 4 },
];

const out = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), 'data/text-rec-crops.bin'));
const dir = mkdtempSync(join(tmpdir(), 'folio-rec-calibration-'));
const detector = (await createSession(await loadModelFile('text-detection'), { intraOpThreads: 1, executionProviders: ['cpu'] })).session;
const parts: Buffer[] = [];
try {
  for (const page of await renderBenchPages(dir, CALIBRATION_PAGES)) {
    for (const image of [page.clean, page.noisy]) {
      const decoded = await decodeImage(image, { rgb: true }); // the file holds RGB crops
      const skew = await measureSkew(decoded);
      const img = await turnImage(decoded, Math.abs(skew) >= MIN_CORRECTED_SKEW ? skew : 0);
      for (const box of await detectLines(detector, img)) {
        const crop = await cropLine(img, box, readingScale(decoded));
        const width = Buffer.alloc(4);
        width.writeUInt32LE(crop.width);
        parts.push(width, crop.pixels);
      }
    }
    console.log(`${page.name}: ${parts.length / 2} crops so far`);
  }
} finally {
  await detector.release();
  rmSync(dir, { recursive: true, force: true });
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, Buffer.concat(parts));
console.log(`${parts.length / 2} crops → ${out}`);
