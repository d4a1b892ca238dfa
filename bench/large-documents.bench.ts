/**
 * Memory of one document worker against document size (issue 19): generated PDFs whose pages each
 * hold a large incompressible image and a line of text, written by streaming into a temp folder,
 * sent through /v3/pdf (up to its 1 GB limit) and the Files API (multipart, streamed), one at a
 * time. The worker's RSS is sampled every 100 ms while each document is processed; the reference
 * is the same worker's idle RSS measured in the same run. Target: peaks flat across sizes (within
 * 100 MB of each other) and each within 300 MB of idle.
 *
 *   npx tsx bench/large-documents.bench.ts [GB ...]     (default 0.3 1 2; mind `df -h /tmp`)
 */
import { randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { MAX_DOCUMENT_BYTES } from '../core/v3/keys.js';
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

export async function benchLargeDocuments(sizesGb: number[]): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-bench-large-'));
  const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '0', FOLIO_DOCUMENT_WORKERS: '1', FOLIO_LOG_LEVEL: 'error' });
  const rows: Record<string, unknown>[] = [];
  try {
    const [worker] = app.childPids(/worker\/main\.ts document/);
    const key = await pcoClient(app.url).newKey();
    await new Promise((r) => setTimeout(r, 3000));
    const idle = memoryMiB(worker!).rss;
    for (const gb of sizesGb) {
      const path = join(dir, `doc-${gb}.pdf`);
      const pages = await writeLargePdf(path, gb * 1024 ** 3);
      const { size } = await stat(path);
      const routes: [string, string, (id: string) => string][] = [['files', '/files/v1', (id) => `/files/v1/${id}`]];
      if (size <= MAX_DOCUMENT_BYTES) routes.unshift(['v3-pdf', '/v3/pdf', (id) => `/v3/pdf/${id}`]);
      for (const [surface, post, poll] of routes) {
        let peak = memoryMiB(worker!).rss;
        const sampler = setInterval(() => (peak = Math.max(peak, memoryMiB(worker!).rss)), 100);
        const t0 = Date.now();
        const { body, type } = multipart(path, `doc-${gb}.pdf`);
        const res = await fetch(`${app.url}${post}`, { method: 'POST', headers: { ...key, 'content-type': type }, body, duplex: 'half' } as RequestInit);
        const answer = (await res.json()) as { pdf_id?: string; file_id?: string; error?: string };
        const id = answer.pdf_id ?? answer.file_id;
        const status = id
          ? await waitFor(
              async () => {
                const s = (await (await fetch(`${app.url}${poll(id)}`, { headers: key })).json()) as { status: string; num_pages_completed?: number };
                return ['completed', 'error'].includes(s.status) && s;
              },
              3_600_000,
              1000,
            )
          : { status: `refused ${res.status} ${answer.error}` };
        clearInterval(sampler);
        const row = {
          surface,
          gb,
          bytes: size,
          pages,
          status: status.status,
          pages_completed: (status as { num_pages_completed?: number }).num_pages_completed,
          seconds: (Date.now() - t0) / 1000,
          idle_rss_mib: idle,
          peak_rss_mib: peak,
          above_idle_mib: peak - idle,
        };
        console.log(JSON.stringify(row));
        rows.push(row);
      }
      await rm(path, { force: true });
    }
  } finally {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const peaks = rows.map((r) => r.peak_rss_mib as number);
  return { rows, spread_mib: Math.max(...peaks) - Math.min(...peaks), worst_above_idle_mib: Math.max(...rows.map((r) => r.above_idle_mib as number)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number);
  console.log(JSON.stringify(await benchLargeDocuments(sizes.length ? sizes : [0.3, 1, 2]), null, 1));
}
