/**
 * `make soak`: one private-cloud job of 2,000 mixed documents while a random document worker is
 * SIGKILLed every few seconds (the appliance restarts it). Passes when every document reaches
 * its expected end state, each page of every output appears exactly once, the job's counters
 * and the usage ledger agree, and prints appliance and worker memory at the start and the end.
 * A script rather than a vitest file so `make test` never runs it. SOAK_DOCUMENTS scales it.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { ERROR_IDS } from '../../core/errors.js';
import { spawnAppliance } from '../support/appliance.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { bulletListPdf, encryptedPdf, HEADING_TEXT, headingAndParagraphsPdf, LIST_ITEMS, linkPdf, pagedPdf, truncatedPdf, twoColumnPdf, zeroBytePdf } from '../support/pdf-fixtures.js';
import { waitFor } from '../support/ports.js';
import { rssKb } from './support.js';

const DOCUMENTS = Number(process.env.SOAK_DOCUMENTS ?? 2000);
const KILL_EVERY_MS: [number, number] = [2_000, 5_000];
const SETTLE_LIMIT_MS = 40 * 60_000;

interface Fixture {
  bytes: Buffer;
  /** Text that must appear exactly once per page of the output, or null for a document that must fail. */
  perPage: string[] | null;
}

/** Twenty kinds of document, one in twenty of them broken (truncated, encrypted, zero bytes). */
async function fixtures(): Promise<Fixture[]> {
  const paged = await Promise.all([1, 2, 3, 4, 6].map(async (n) => ({ bytes: await pagedPdf(n), perPage: Array.from({ length: n }, (_, p) => `Body of page ${p + 1}.`) })));
  const heading = { bytes: await headingAndParagraphsPdf(), perPage: [HEADING_TEXT] };
  const columns = { bytes: await twoColumnPdf(), perPage: ['Left column line 1 text'] };
  const list = { bytes: await bulletListPdf(), perPage: [LIST_ITEMS[0]!] };
  const link = { bytes: await linkPdf(), perPage: ['for details.'] };
  const broken: Fixture[] = [await truncatedPdf(), encryptedPdf(), zeroBytePdf()].map((bytes) => ({ bytes, perPage: null }));
  const good: Fixture[] = [...paged, ...paged, heading, heading, columns, columns, list, list, link, link, heading];
  return Array.from({ length: DOCUMENTS }, (_, i) => (i % 20 === 19 ? broken[Math.floor(i / 20) % broken.length]! : good[i % 20]!));
}

const mb = (kb: number) => Math.round(kb / 1024);

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'folio-soak-'));
  const app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '2', FOLIO_INFERENCE_WORKERS: '0', FOLIO_LOG_LEVEL: 'error' });
  let killer: NodeJS.Timeout | undefined;
  try {
    const docs = await fixtures();
    await mkdir(join(root, 'in'));
    const name = (i: number) => `doc-${String(i).padStart(4, '0')}.pdf`;
    for (const [i, d] of docs.entries()) await writeFile(join(root, 'in', name(i)), d.bytes);
    const pagesOf = async (d: Fixture) => (d.perPage ? (await PDFDocument.load(d.bytes)).getPageCount() : 0);
    let expectedPages = 0;
    for (const d of docs) expectedPages += await pagesOf(d);
    const expectedFailed = docs.filter((d) => !d.perPage).length;

    const pco = pcoClient(app.url);
    const workers = () => app.childPids(/worker\/main\.ts document/);
    const memory = async () => ({ appliance: mb(await rssKb(app.proc.pid!)), workers: await Promise.all(workers().map(async (p) => mb(await rssKb(p)))) });
    const usageBefore = (await pco.call('GET', '/pco/v1/usage')).body.totals;
    const startMemory = await memory();
    const t0 = Date.now();
    const created = await pco.create({ input: { folder: `file://${root}/in/` }, output: { folder: `file://${root}/out/`, layout: 'mirror' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.job_id as string;

    let kills = 0;
    const scheduleKill = () => {
      killer = setTimeout(() => {
        const pids = workers();
        const victim = pids[Math.floor(Math.random() * pids.length)];
        if (victim) {
          process.kill(victim, 'SIGKILL');
          kills++;
        }
        scheduleKill();
      }, KILL_EVERY_MS[0] + Math.random() * (KILL_EVERY_MS[1] - KILL_EVERY_MS[0]));
    };
    scheduleKill();
    const done = await pco.settled(id, SETTLE_LIMIT_MS);
    clearTimeout(killer);
    const seconds = Math.round((Date.now() - t0) / 1000);
    // Let the restarted workers come back before measuring them.
    await waitFor(async () => workers().length === 2, 30_000, 200);
    await new Promise((r) => setTimeout(r, 2_000));
    const endMemory = await memory();

    const report = (await pco.call('GET', `/pco/v1/jobs/${id}/report`)).text.trim().split('\n').map((l) => JSON.parse(l) as { key: string; status: string; error_id: string | null; error_message: string | null; attempts: number; pages: number });
    const byName = new Map(report.map((f) => [f.key.split('/').pop(), f]));
    const unexpected = docs.flatMap((d, i) => {
      const f = byName.get(name(i));
      return f && (f.status === 'completed') !== Boolean(d.perPage) ? [{ name: name(i), status: f.status, error_id: f.error_id, error_message: f.error_message?.slice(0, 200), attempts: f.attempts }] : [];
    });
    // The ledger is fed asynchronously: read it once it has stopped moving.
    let usage = (await pco.call('GET', '/pco/v1/usage')).body.totals;
    for (let stable = 0; stable < 3; ) {
      await new Promise((r) => setTimeout(r, 1_000));
      const next = (await pco.call('GET', '/pco/v1/usage')).body.totals;
      stable = next.pages_billable === usage.pages_billable ? stable + 1 : 0;
      usage = next;
    }
    const retried = report.filter((f) => f.attempts > 1).length;
    console.log(JSON.stringify({
      soak: { documents: DOCUMENTS, seconds, kills, documents_processed_more_than_once: retried, status: done.status, files: done.files, pages: done.pages },
      ledger: { pages_billable: usage.pages_billable - usageBefore.pages_billable, documents_billable: usage.documents_billable - usageBefore.documents_billable },
      memory_mb: { start: startMemory, end: endMemory },
      unexpected,
    }));

    assert.equal(done.status, 'completed_with_failures');
    assert.equal(done.files.discovered, DOCUMENTS);
    assert.equal(sumOfFive(done.files), DOCUMENTS);
    assert.equal(done.files.failed, expectedFailed);
    assert.equal(done.files.completed, DOCUMENTS - expectedFailed);
    assert.deepEqual(unexpected, []);
    assert.deepEqual(done.pages, { completed: expectedPages, failed: 0 });
    assert.equal(report.length, DOCUMENTS, 'one report line per document');
    assert.equal(usage.pages_billable - usageBefore.pages_billable, expectedPages);
    assert.equal(usage.documents_billable - usageBefore.documents_billable, DOCUMENTS - expectedFailed);
    const problems: string[] = [];
    for (const [i, d] of docs.entries()) {
      const f = byName.get(name(i));
      if (!f) problems.push(`${name(i)}: missing from the report`);
      else if (!d.perPage) {
        if (f.status !== 'failed' || !ERROR_IDS.includes(f.error_id as never) || f.error_id === 'sys_exception') problems.push(`${name(i)}: ${f.status} ${f.error_id}`);
      } else if (f.status !== 'completed') problems.push(`${name(i)}: ${f.status} ${f.error_id}`);
      else {
        const mmd = await readFile(join(root, 'out', name(i).replace(/\.pdf$/, '.mmd')), 'utf8');
        const counts = d.perPage.map((s) => mmd.split(s).length - 1);
        if (counts.some((c) => c !== 1)) problems.push(`${name(i)}: page text counts ${counts.join(',')}`);
      }
    }
    assert.deepEqual(problems.slice(0, 20), []);
    console.log(`soak passed: ${DOCUMENTS} documents, ${kills} worker kills, nothing lost or doubled`);
  } finally {
    clearTimeout(killer);
    await app.stop();
    await rm(root, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
