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

/**
 * CPU seconds of `pid` and every process below it, children they have waited for included, by
 * role: the appliance, each worker role (the argument after worker/main.ts), anything else.
 */
function treeCpuSeconds(pid: number): Record<string, number> {
  const stats = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const s = readFileSync(`/proc/${d}/stat`, 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        const args = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        const main = args.findIndex((a) => a.endsWith('worker/main.ts'));
        const role = main >= 0 ? (args[main + 1] ?? 'worker') : args.some((a) => a.endsWith('appliance/main.ts')) ? 'appliance' : 'other';
        // after the name: state ppid … utime stime cutime cstime (0-based 11 to 14)
        return [{ pid: Number(d), ppid: Number(f[1]), role, ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) }];
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
  const byRole: Record<string, number> = {};
  for (const s of stats) if (inTree.has(s.pid)) byRole[s.role] = (byRole[s.role] ?? 0) + s.ticks / CLK_TCK;
  return byRole;
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
    // A page's 15 s default would time out pages on a machine other work loads: the bench measures throughput.
    const created = await pco.create({ name: 'scanned-bench', input: { folder: `file://${input}/` }, policy: { per_page_timeout_seconds: 300 } });
    if (created.status !== 201) throw new Error(`job refused: ${created.status} ${created.text.slice(0, 200)}`);
    const job = await pco.settled(created.body.job_id as string, 60 * 60_000);
    const cpuAfter = treeCpuSeconds(app.proc.pid!);
    const pages = job.pages.completed as number;
    const perPage = (seconds: number) => Math.round((seconds / Math.max(1, pages)) * 100) / 100;
    const byRole = Object.fromEntries(Object.entries(cpuAfter).map(([role, s]) => [role, perPage(s - (cpuBefore[role] ?? 0))]));
    const cpu = Object.values(cpuAfter).reduce((a, b) => a + b, 0) - Object.values(cpuBefore).reduce((a, b) => a + b, 0);
    const minutes = (Date.parse(job.finished_at) - Date.parse(job.created_at)) / 60_000;
    const failed = (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files?status=failed`)).body.files as { document_id: string }[];
    const failures = await Promise.all(failed.map(async (f) => (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files/${f.document_id}`)).body));
    return {
      status: job.status,
      pages_completed: pages,
      pages_failed: job.pages.failed,
      document_workers: 2,
      inference_workers: 1,
      dpi: SCAN_BENCH_DPI,
      minutes: Math.round(minutes * 100) / 100,
      pages_per_minute: Math.round((pages / minutes) * 100) / 100,
      cpu_seconds_per_page: perPage(cpu),
      cpu_seconds_per_page_by_process: byRole,
      load_average_at_start: Math.round(load * 10) / 10,
      failures,
    };
  } finally {
    await app.stop();
    await rm(root, { recursive: true, force: true });
  }
}
