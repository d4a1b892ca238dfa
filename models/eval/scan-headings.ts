/**
 * Headings found on scanned pages against the born-digital read of the same pages. Pages of
 * Debian's texlive documentation PDFs (never amsmath's own documents) go through a running
 * appliance's /v3/pdf twice: as they are, and rasterised at SCAN_DPI_EVAL into an image-only PDF.
 * The born-digital read's headings (font size, bold) are the reference; a scanned heading counts
 * as found when its words match one of them.
 *
 *   npx tsx models/eval/scan-headings.ts [doc.pdf:first-last ...]
 */
import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { spawnAppliance } from '../../test/support/appliance.js';
import { pcoClient } from '../../test/support/pco-client.js';
import { waitFor } from '../../test/support/ports.js';
import { scannedPdf } from '../../test/support/scanned-fixtures.js';

const SCAN_DPI_EVAL = 200;
const TEXDOC = '/usr/share/doc/texlive-doc/latex';
const DEFAULT_PAGES = ['elsarticle/elstest-1p.pdf:1-4', 'llncs/llncsdoc.pdf:1-4', 'amsaddr/amsaddr.pdf:1-2'];

const words = (heading: string) =>
  heading
    .replace(/^#+\s*/, '')
    .replace(/[^\p{L}\p{N} ]/gu, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');

const headings = (mmd: string) => mmd.split('\n').filter((l) => /^#{1,6} /.test(l));

async function pages(path: string, first: number, last: number): Promise<Buffer> {
  const src = await PDFDocument.load(await readFile(path));
  const out = await PDFDocument.create();
  const copied = await out.copyPages(
    src,
    Array.from({ length: last - first + 1 }, (_, i) => first - 1 + i),
  );
  for (const p of copied) out.addPage(p);
  return Buffer.from(await out.save());
}

const app = await spawnAppliance({ FOLIO_INFERENCE_WORKERS: '1' }, { startTimeoutMs: 300_000 });
try {
  const auth = await pcoClient(app.url).newKey(`headings-${Date.now()}`);
  const read = async (pdf: Buffer): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'in.pdf');
    const { pdf_id: id } = (await fetch(`${app.url}/v3/pdf`, { method: 'POST', headers: auth, body: form }).then((r) => r.json())) as any;
    const status = await waitFor(
      async () => {
        const s = (await fetch(`${app.url}/v3/pdf/${id}`, { headers: auth }).then((r) => r.json())) as any;
        return ['completed', 'error'].includes(s.status) && s;
      },
      900_000,
      500,
    );
    // A page that failed (a timeout on a loaded machine) would count as a page without headings.
    if (status.status !== 'completed' || status.num_pages_failed) throw new Error(`not every page was read: ${JSON.stringify(status)}`);
    return fetch(`${app.url}/v3/pdf/${id}.mmd`, { headers: auth }).then((r) => r.text());
  };
  let [born, scanned, found] = [0, 0, 0];
  for (const spec of process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_PAGES) {
    const [file, range] = spec.split(':') as [string, string];
    const [first, last] = range.split('-').map(Number) as [number, number];
    const pdf = await pages(file.startsWith('/') ? file : `${TEXDOC}/${file}`, first, last);
    const reference = headings(await read(pdf));
    const scan = headings(await read(await scannedPdf(pdf, SCAN_DPI_EVAL)));
    const known = new Set(reference.map(words));
    const hits = scan.filter((h) => known.has(words(h)));
    [born, scanned, found] = [born + reference.length, scanned + scan.length, found + hits.length];
    console.log(`\n## ${spec}: born-digital ${reference.length}, scanned ${scan.length}, matching ${hits.length}`);
    console.log(`born-digital:\n  ${reference.join('\n  ')}\nscanned:\n  ${scan.join('\n  ')}`);
  }
  console.log(`\nall: born-digital headings ${born}, scanned headings ${scanned}, scanned matching a born-digital heading ${found}`);
} finally {
  await app.stop();
}
