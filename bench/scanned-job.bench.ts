/**
 * A private-cloud job over scanned papers (issue 18): 30 pages of Debian's TeX Live manuals
 * rendered at 200 dpi into three image-only PDFs of 10 pages, put in a folder, and one
 * POST /pco/v1/jobs over it on an appliance with 2 document workers and 1 inference worker.
 * Reports pages per minute from the job's created_at to its finished_at, and the CPU seconds the
 * appliance and its workers spent per page (user + system, waited-for children included: the
 * figure that holds on a machine whose cores other work shares). `SCANNED_JOB_PAGES` (a
 * multiple of 3) runs a smaller job.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { spawnAppliance } from '../test/support/appliance.js';
import { pcoClient } from '../test/support/pco-client.js';
import { SCAN_BENCH_DPI } from './scanned-renders.js';

const run = promisify(execFile);
const DOCS = '/usr/share/doc/texlive-doc';
/** Ten pages of each: prose, lists, tables of commands and a little maths (not amsmath's own documents). */
const SOURCES = [
  { pdf: `${DOCS}/bibtex/base/btxdoc.pdf`, first: 1 },
  { pdf: `${DOCS}/latex/koma-script/scrguide-en.pdf`, first: 30 },
  { pdf: `${DOCS}/fonts/txfonts/txfontsdoc.pdf`, first: 1 },
];
const CLK_TCK = 100;

/** Pages first..first+count-1 of `pdf` rendered by pdftoppm at `dpi`, each the only content of an image-only page. */
async function scannedPages(dir: string, pdf: string, first: number, count: number): Promise<Buffer> {
  const last = first + count - 1;
  await run('pdftoppm', ['-r', String(SCAN_BENCH_DPI), '-f', String(first), '-l', String(last), '-png', pdf, join(dir, 'p')]);
  const out = await PDFDocument.create();
  const pngs = readdirSync(dir)
    .filter((f) => /^p-\d+\.png$/.test(f))
    .sort();
  for (const f of pngs) {
    const png = await out.embedPng(await readFile(join(dir, f)));
    const [w, h] = [(png.width * 72) / SCAN_BENCH_DPI, (png.height * 72) / SCAN_BENCH_DPI];
    out.addPage([w, h]).drawImage(png, { x: 0, y: 0, width: w, height: h });
    await rm(join(dir, f));
  }
  return Buffer.from(await out.save());
}

/** CPU seconds of `pid` and every process below it, children they have waited for included. */
function treeCpuSeconds(pid: number): number {
  const stats = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const s = readFileSync(`/proc/${d}/stat`, 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        // fields after the name: state ppid ... utime(12) stime(13) cutime(14) cstime(15), 0-based from state
        return [{ pid: Number(d), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) }];
      } catch {
        return [];
      }
    });
  const inTree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const s of stats)
      if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
        inTree.add(s.pid);
        grew = true;
      }
  }
  return stats.filter((s) => inTree.has(s.pid)).reduce((sum, s) => sum + s.ticks, 0) / CLK_TCK;
}

export async function benchScannedJob(): Promise<Record<string, unknown>> {
  const perDocument = Number(process.env.SCANNED_JOB_PAGES ?? 30) / SOURCES.length;
  const root = await mkdtemp(join(tmpdir(), 'folio-bench-scanned-job-'));
  const input = join(root, 'in');
  await mkdir(input);
  for (const [i, s] of SOURCES.entries()) {
    const work = join(root, `render-${i}`);
    await mkdir(work);
    await writeFile(join(input, `scan-${i}.pdf`), await scannedPages(work, s.pdf, s.first, perDocument));
  }
  const app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '2', FOLIO_INFERENCE_WORKERS: '1', FOLIO_LOG_LEVEL: 'error' });
  try {
    const pco = pcoClient(app.url);
    const cpuBefore = treeCpuSeconds(app.proc.pid!);
    const load = loadavg()[0]!;
    const created = await pco.create({ name: 'scanned-bench', input: { folder: `file://${input}/` } });
    if (created.status !== 201) throw new Error(`job refused: ${created.status} ${created.text.slice(0, 200)}`);
    const job = await pco.settled(created.body.job_id as string, 60 * 60_000);
    const cpu = treeCpuSeconds(app.proc.pid!) - cpuBefore;
    const minutes = (Date.parse(job.finished_at) - Date.parse(job.created_at)) / 60_000;
    const pages = job.pages.completed as number;
    return {
      status: job.status,
      pages_completed: pages,
      pages_failed: job.pages.failed,
      document_workers: 2,
      inference_workers: 1,
      dpi: SCAN_BENCH_DPI,
      minutes: Math.round(minutes * 100) / 100,
      pages_per_minute: Math.round((pages / minutes) * 100) / 100,
      cpu_seconds_per_page: Math.round((cpu / Math.max(1, pages)) * 100) / 100,
      load_average_at_start: Math.round(load * 10) / 10,
    };
  } finally {
    await app.stop();
    await rm(root, { recursive: true, force: true });
  }
}
