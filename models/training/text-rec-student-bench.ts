/**
 * The scanned-page bench (bench/ocr-vs-tesseract.bench.ts) with candidate Latin recognisers
 * (text_rec_student.py exports) standing in for text-recognition-cpu-latin, beside the shipped
 * one and Tesseract, page by page in one process pinned to core 0: word recall, CER and CPU
 * seconds per page for each, clean and noisy-skewed.
 *
 *   npx tsx models/training/text-rec-student-bench.ts CANDIDATE.onnx... [--pages N]
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { folioRead, pin, type Reading, score, tesseractRead } from '../../bench/ocr-vs-tesseract.bench.js';
import { renderBenchPages, BENCH_PAGES } from '../../bench/scanned-renders.js';
import { DEFAULT_MANIFEST_PATH } from '../../worker/engine/models.js';
import { LATIN_RECOGNITION_MODEL, TextRecognizer } from '../../worker/engine/text/index.js';

const args = process.argv.slice(2);
const pagesAt = args.indexOf('--pages');
const pageCount = pagesAt >= 0 ? Number(args.splice(pagesAt, 2)[1]) : BENCH_PAGES.length;
const candidates = args.map((a) => resolve(a));

/** The manifest with every repository model made absolute and the Latin recogniser replaced by `onnx`. */
async function manifestWith(onnx: string, dir: string, n: number): Promise<string> {
  const manifest = JSON.parse(await readFile(DEFAULT_MANIFEST_PATH, 'utf8')) as { models: { id: string; path: string; package?: string; sha256: string }[] };
  for (const e of manifest.models) {
    if (!e.package && !isAbsolute(e.path)) e.path = resolve(DEFAULT_MANIFEST_PATH, '..', e.path);
    if (e.id === LATIN_RECOGNITION_MODEL) {
      e.path = onnx;
      e.sha256 = createHash('sha256')
        .update(await readFile(onnx))
        .digest('hex');
    }
  }
  const path = join(dir, `manifest-${n}.json`);
  await writeFile(path, JSON.stringify(manifest));
  return path;
}

const dir = await mkdtemp(join(tmpdir(), 'folio-student-bench-'));
try {
  const pages = await renderBenchPages(dir, BENCH_PAGES.slice(0, pageCount));
  const names = ['shipped', ...candidates.map((c) => c.split('/').slice(-2).join('/'))];
  const engines = [await TextRecognizer.load({ intraOpThreads: 1, executionProviders: ['cpu'] })];
  for (const [n, c] of candidates.entries()) {
    engines.push(await TextRecognizer.load({ intraOpThreads: 1, executionProviders: ['cpu'], manifestPath: await manifestWith(c, dir, n) }));
  }
  await pin('0');
  for (const e of engines) await e.recognize(pages[0]!.clean); // warm-up
  const truths = pages.map((p) => p.truth);
  for (const render of ['clean', 'noisy'] as const) {
    const reads: Reading[][] = engines.map(() => []);
    const tess: Reading[] = [];
    for (const p of pages) {
      for (const [i, e] of engines.entries()) reads[i]!.push(await folioRead(e, p[render]));
      tess.push(await tesseractRead(dir, p[render]));
    }
    const t = score(tess, truths);
    console.log(`${render}: tesseract recall ${t.word_recall} CER ${t.cer} CPU ${t.cpu_seconds_per_page} s/page`);
    for (const [i, r] of reads.entries()) {
      const s = score(r, truths);
      console.log(
        `${render}: ${names[i]} recall ${s.word_recall} CER ${s.cer} CPU ${s.cpu_seconds_per_page} s/page (${Math.round((s.cpu_seconds_per_page / t.cpu_seconds_per_page) * 100) / 100}x tesseract)`,
      );
    }
  }
  await Promise.all(engines.map((e) => e.release()));
} finally {
  await pin(`0-${cpus().length - 1}`);
  await rm(dir, { recursive: true, force: true });
}
