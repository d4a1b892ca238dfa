/**
 * Memory of one document worker against document size (issue 19): generated PDFs whose pages each
 * hold a large incompressible image and a line of text, written by streaming into a temp folder,
 * sent through /v3/pdf (up to its 1 GiB limit) and the Files API (multipart, streamed), one at a
 * time. The worker's peak RSS is the kernel's high-water mark (VmHWM, reset before each document),
 * so no short peak is missed, and reset at each stage of the document (fetch, pages, outputs) for
 * that stage's own peak; the reference is the same worker's idle RSS measured in the same run.
 * Target: peaks flat across sizes (within 100 MB of each other) and each within 300 MB of idle.
 *
 *   npx tsx bench/large-documents.bench.ts [GB ...] [files:GB ...]
 *   (default 0.3 1 2 through both surfaces and files:4.3, just over what pdf.js can address;
 *   GB are 10^9 bytes; needs the largest size free in /tmp, twice: the upload and the worker's copy)
 */
import { execFileSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { spawnAppliance } from '../test/support/appliance.js';
import { pcoClient } from '../test/support/pco-client.js';
import { memoryMiB } from '../test/support/proc-memory.js';
import { waitFor } from '../test/support/ports.js';

const IMAGE_W = 2400;
const IMAGE_H = 2300;
const IMAGE_BYTES = IMAGE_W * IMAGE_H * 3;

/** Writes a PDF of about `bytes` to `path` without holding more than one image in memory. */
export async function writeLargePdf(path: string, bytes: number): Promise<number> {
  const pages = Math.max(1, Math.round(bytes / IMAGE_BYTES));
  const out = createWriteStream(path);
  let offset = 0;
  const offsets: number[] = [];
  const write = (chunk: string | Buffer) => {
    offset += typeof chunk === 'string' ? Buffer.byteLength(chunk, 'latin1') : chunk.length;
    return out.write(chunk) ? undefined : new Promise<void>((r) => out.once('drain', () => r()));
  };
  const object = async (n: number, body: string | Buffer[]) => {
    offsets[n] = offset;
    if (typeof body === 'string') return write(`${n} 0 obj\n${body}\nendobj\n`);
    await write(`${n} 0 obj\n`);
    for (const part of body) await write(part);
    return write('\nendobj\n');
  };
  // 1 catalog, 2 pages, 3 font; page i: 4+3i page, 5+3i content, 6+3i image.
  await write('%PDF-1.4\n');
  await object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  await object(2, `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, i) => `${4 + 3 * i} 0 R`).join(' ')}] >>`);
  await object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const image = Buffer.alloc(IMAGE_BYTES);
  for (let i = 0; i < pages; i++) {
    const [page, content, img] = [4 + 3 * i, 5 + 3 * i, 6 + 3 * i];
    await object(
      page,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 3 0 R >> /XObject << /Im ${img} 0 R >> >> >>`,
    );
    const text = `q 468 0 0 450 72 250 cm /Im Do Q BT /F1 12 Tf 72 720 Td (Body of page ${i + 1}.) Tj ET`;
    await object(content, `<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    randomFillSync(image);
    await object(img, [
      Buffer.from(
        `<< /Type /XObject /Subtype /Image /Width ${IMAGE_W} /Height ${IMAGE_H} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${IMAGE_BYTES} >>\nstream\n`,
        'latin1',
      ),
      image,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  }
  const xref = offset;
  let table = `xref\n0 ${offsets.length}\n0000000000 65535 f \n`;
  for (let n = 1; n < offsets.length; n++) table += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  await write(`${table}trailer\n<< /Size ${offsets.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  await new Promise<void>((r) => out.end(r));
  return pages;
}

/** A multipart body streamed from the file: part `file`, never the whole file in memory. */
function multipart(path: string, name: string): { body: ReadableStream; type: string } {
  const boundary = `folio${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
    yield tail;
  }
  return { body: Readable.toWeb(Readable.from(parts())) as ReadableStream, type: `multipart/form-data; boundary=${boundary}` };
}

const TABLE = new URL('./LARGE-DOCUMENTS.md', import.meta.url);

const stagePeaks = (r: Record<string, unknown>) => {
  const s = (r.stage_peaks_mib ?? {}) as Record<string, number>;
  return ['upload', 'fetch', 'pages', 'outputs'].map((k) => s[k] ?? '–').join(' / ');
};

/** bench/LARGE-DOCUMENTS.md: this run's rows, with the machine's load and the commit. */
function writeTable(idle: Record<string, number>, rows: Record<string, unknown>[]): void {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const failed = (r: Record<string, unknown>) =>
    ((r.page_errors as { page: number; error_id: string }[] | undefined) ?? []).map((e) => `page ${e.page} ${e.error_id}`).join(', ');
  const lines = [
    '# Document worker memory against document size (`make bench-large`)',
    '',
    `Run of commit ${commit}, ${new Date().toISOString().slice(0, 16)} UTC, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; one document worker, no inference worker.`,
    `Idle RSS: ${idle.cold_mib} MiB once started (cold), ${idle.warm_mib} MiB after a one-page document through each surface (warm).`,
    'Peak RSS is the kernel high-water mark (VmHWM) of the worker process, reset before each document; pdftoppm and OSRA run as their own processes.',
    '',
    '| Surface | Size (10^9 B) | Pages | Result | Seconds | Peak RSS MiB | Above warm idle | Above cold idle | Peak by stage: upload / fetch / pages / outputs |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.surface} | ${(Number(r.bytes) / 1e9).toFixed(2)} | ${r.pages} | ${r.status}${r.pages_completed !== undefined ? `, ${r.pages_completed} pages` : ''}${r.error ? ` (${String(r.error)})` : ''}${failed(r) ? `; ${failed(r)}` : ''} | ${Math.round(Number(r.seconds))} | ${r.peak_rss_mib} | ${r.above_warm_idle_mib} | ${r.above_cold_idle_mib} | ${stagePeaks(r)} |`,
    ),
    '',
  ];
  writeFileSync(TABLE, lines.join('\n'));
}

/** Resets the kernel's peak-RSS mark of `pid` (Linux ≥ 4.0), so VmHWM then holds the peak of what follows, every allocation counted. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Waits until the worker's RSS has moved less than 5 MiB over 3 s (its pdf.js thread is up): its idle RSS. */
async function settledRss(pid: number): Promise<number> {
  let last = memoryMiB(pid).rss;
  for (;;) {
    await new Promise((r) => setTimeout(r, 3000));
    const now = memoryMiB(pid).rss;
    if (Math.abs(now - last) < 5) return now;
    last = now;
  }
}

type Poll = { status: string; num_pages?: number; num_pages_completed?: number; page_errors?: unknown; error?: string; error_info?: unknown };

/**
 * The stage a document is in, from what its poll answers: `fetch` until the page count is known
 * (the worker copies the source from storage and pdf.js opens it), `pages` while pages remain, `outputs` once every
 * page is counted (MMD, lines JSON and any formats are written).
 */
function stageOf(s: Poll): 'fetch' | 'pages' | 'outputs' {
  if (!s.num_pages) return 'fetch';
  return (s.num_pages_completed ?? 0) < s.num_pages ? 'pages' : 'outputs';
}

/** Sends the file through one surface and waits for its end state: the worker's peak RSS meanwhile, and the peak of each stage (polled every second). */
async function send(url: string, key: Record<string, string>, worker: number, path: string, surface: 'v3-pdf' | 'files'): Promise<Record<string, unknown>> {
  const [post, poll] = surface === 'v3-pdf' ? ['/v3/pdf', '/v3/pdf/'] : ['/files/v1', '/files/v1/'];
  resetPeak(worker);
  const t0 = Date.now();
  const { body, type } = multipart(path, 'doc.pdf');
  const res = await fetch(`${url}${post}`, { method: 'POST', headers: { ...key, 'content-type': type }, body, duplex: 'half' } as RequestInit);
  const answer = (await res.json()) as { pdf_id?: string; file_id?: string; error?: string };
  const id = answer.pdf_id ?? answer.file_id;
  const stages: Record<string, number> = { upload: memoryMiB(worker).peak };
  let peak = stages.upload!;
  let stage = 'fetch';
  resetPeak(worker);
  const end: Poll = id
    ? await waitFor(
        async () => {
          const s = (await (await fetch(`${url}${poll}${id}`, { headers: key })).json()) as Poll;
          const done = ['completed', 'error'].includes(s.status);
          const now = done ? 'end' : stageOf(s);
          if (now !== stage) {
            const hwm = memoryMiB(worker).peak;
            stages[stage] = Math.max(stages[stage] ?? 0, hwm);
            peak = Math.max(peak, hwm);
            resetPeak(worker);
            stage = now;
          }
          return done && s;
        },
        3_600_000,
        1000,
      )
    : { status: `refused at upload: HTTP ${res.status}`, error: answer.error };
  const { rss } = memoryMiB(worker);
  return {
    status: end.status,
    pages_completed: end.num_pages_completed,
    ...(end.page_errors ? { page_errors: end.page_errors } : {}),
    ...(end.error ? { error: end.error } : {}),
    seconds: (Date.now() - t0) / 1000,
    peak_rss_mib: peak,
    stage_peaks_mib: stages,
    rss_after_mib: rss,
  };
}

/**
 * `sizesGb` in 10^9 bytes, each through /v3/pdf and the Files API (a size over /v3/pdf's limit is
 * refused there, as the spec says); `filesOnlyGb` through the Files API alone. Idle RSS is taken
 * twice: once the worker has started and settled (cold), and after a one-page document through
 * each surface (warm: pdf.js and the figure tools loaded, which happens once per worker).
 */
export async function benchLargeDocuments(sizesGb: number[], filesOnlyGb: number[] = []): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-large-'));
  const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '0', FOLIO_DOCUMENT_WORKERS: '1', FOLIO_LOG_LEVEL: 'error' });
  const rows: Record<string, unknown>[] = [];
  const idle: Record<string, number> = {};
  try {
    const [worker] = app.childPids(/worker\/main\.ts document/);
    const key = await pcoClient(app.url).newKey();
    idle.cold_mib = await settledRss(worker!);
    const warmUp = join(dir, 'warm-up.pdf');
    await writeLargePdf(warmUp, 1);
    for (const surface of ['v3-pdf', 'files'] as const) await send(app.url, key, worker!, warmUp, surface);
    idle.warm_mib = await settledRss(worker!);
    console.log(JSON.stringify({ idle_rss: idle }));
    const runs = [...sizesGb.map((gb) => ({ gb, surfaces: ['v3-pdf', 'files'] as const })), ...filesOnlyGb.map((gb) => ({ gb, surfaces: ['files'] as const }))];
    for (const { gb, surfaces } of runs) {
      const path = join(dir, `doc-${gb}.pdf`);
      const pages = await writeLargePdf(path, gb * 1e9);
      const { size } = await stat(path);
      for (const surface of surfaces) {
        const result = await send(app.url, key, worker!, path, surface);
        const peak = result.peak_rss_mib as number;
        const row = { surface, gb, bytes: size, pages, ...result, above_warm_idle_mib: peak - idle.warm_mib!, above_cold_idle_mib: peak - idle.cold_mib! };
        console.log(JSON.stringify(row));
        rows.push(row);
        writeTable(idle, rows); // after each row: a run cut short keeps what it measured
      }
      await rm(path, { force: true });
    }
  } finally {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const processed = rows.filter((r) => r.status === 'completed');
  const peaks = processed.map((r) => r.peak_rss_mib as number);
  return {
    idle_rss: idle,
    rows,
    spread_mib: Math.max(...peaks) - Math.min(...peaks),
    worst_above_warm_idle_mib: Math.max(...processed.map((r) => r.above_warm_idle_mib as number)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `npx tsx bench/large-documents.bench.ts 0.3 1 2 files:4.3`: files:N goes through the Files API only.
  const args = process.argv.slice(2);
  const both = args.filter((a) => !a.startsWith('files:')).map(Number);
  const filesOnly = args.filter((a) => a.startsWith('files:')).map((a) => Number(a.slice(6)));
  console.log(JSON.stringify(await benchLargeDocuments(args.length ? both : [0.3, 1, 2], args.length ? filesOnly : [4.3]), null, 1));
}
