/**
 * `make soak`: one private-cloud job of 2,000 mixed documents while a random document worker is
 * SIGKILLed every few seconds (the appliance restarts it). Passes when every document reaches
 * its expected end state, each page of every output appears exactly once, the job's counters
 * and the usage ledger agree, and the appliance and every document worker end within 20 % of
 * their memory at the start (soak-memory.ts: both samples follow a batch of documents without
 * kills and 30 s of idle). A script rather than a vitest file so `make test` never runs it.
 * SOAK_DOCUMENTS scales it.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { ERROR_IDS } from '../../core/errors.js';
import { spawnAppliance } from '../support/appliance.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { type SoakFixture, soakFixtures, soakName as name } from './soak-fixtures.js';
import { memoryProblems, sampleWhenQuiet } from './soak-memory.js';

const DOCUMENTS = Number(process.env.SOAK_DOCUMENTS ?? 2000);
/** Documents of the same mix run without kills before the start sample and before the end sample. */
const WARM_UP_DOCUMENTS = 100;
const KILL_EVERY_MS: [number, number] = [2_000, 5_000];
const SETTLE_LIMIT_MS = 40 * 60_000;

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'folio-soak-'));
  const app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '2', FOLIO_INFERENCE_WORKERS: '0', FOLIO_LOG_LEVEL: 'error' });
  let killer: NodeJS.Timeout | undefined;
  try {
    const docs = await soakFixtures(DOCUMENTS);
    const writeFolder = async (folder: string, files: SoakFixture[]) => {
      await mkdir(join(root, folder, 'in'), { recursive: true });
      for (const [i, d] of files.entries()) await writeFile(join(root, folder, 'in', name(i)), d.bytes);
    };
    await writeFolder('soak', docs);
    await writeFolder('warm-up', await soakFixtures(WARM_UP_DOCUMENTS));
    await writeFolder('cool-down', await soakFixtures(WARM_UP_DOCUMENTS));
    const pagesOf = async (d: SoakFixture) => (d.perPage ? (await PDFDocument.load(d.bytes)).getPageCount() : 0);
    let expectedPages = 0;
    for (const d of docs) expectedPages += await pagesOf(d);
    const expectedFailed = docs.filter((d) => !d.perPage).length;

    const pco = pcoClient(app.url);
    const workers = () => app.childPids(/worker\/main\.ts document/);
    const createJob = async (folder: string) => {
      const created = await pco.create({
        input: { folder: `file://${root}/${folder}/in/` },
        output: { folder: `file://${root}/${folder}/out/`, layout: 'mirror' },
      });
      assert.equal(created.status, 201, created.text);
      return created.body.job_id as string;
    };
    /** A batch without kills, so every worker has loaded and used the whole pipeline before it is sampled. */
    const warmBatch = async (folder: string) => {
      await waitFor(async () => workers().length === 2, 30_000, 200);
      const done = await pco.settled(await createJob(folder), 5 * 60_000);
      assert.equal(done.status, 'completed_with_failures', `${folder} batch`);
      return sampleWhenQuiet(app.proc.pid!, workers);
    };
    // The ledger is fed asynchronously: read it once it has stopped moving.
    const settledUsage = async () => {
      let usage = (await pco.call('GET', '/pco/v1/usage')).body.totals;
      for (let stable = 0; stable < 3;) {
        await new Promise((r) => setTimeout(r, 1_000));
        const next = (await pco.call('GET', '/pco/v1/usage')).body.totals;
        stable = next.pages_billable === usage.pages_billable ? stable + 1 : 0;
        usage = next;
      }
      return usage;
    };

    const startMemory = await warmBatch('warm-up');
    const usageBefore = await settledUsage();
    const t0 = Date.now();
    const id = await createJob('soak');

    let kills = 0;
    const scheduleKill = () => {
      killer = setTimeout(
        () => {
          const pids = workers();
          const victim = pids[Math.floor(Math.random() * pids.length)];
          if (victim) {
            process.kill(victim, 'SIGKILL');
            kills++;
          }
          scheduleKill();
        },
        KILL_EVERY_MS[0] + Math.random() * (KILL_EVERY_MS[1] - KILL_EVERY_MS[0]),
      );
    };
    scheduleKill();
    const done = await pco.settled(id, SETTLE_LIMIT_MS);
    clearTimeout(killer);
    const seconds = Math.round((Date.now() - t0) / 1000);

    const report = (await pco.call('GET', `/pco/v1/jobs/${id}/report`)).text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; status: string; error_id: string | null; error_message: string | null; attempts: number; pages: number });
    const byName = new Map(report.map((f) => [f.key.split('/').pop(), f]));
    const unexpected = docs.flatMap((d, i) => {
      const f = byName.get(name(i));
      return f && (f.status === 'completed') !== Boolean(d.perPage)
        ? [{ name: name(i), status: f.status, error_id: f.error_id, error_message: f.error_message?.slice(0, 200), attempts: f.attempts }]
        : [];
    });
    const usage = await settledUsage();
    const endMemory = await warmBatch('cool-down');
    const memory = memoryProblems(startMemory, endMemory);
    const retried = report.filter((f) => f.attempts > 1).length;
    console.log(
      JSON.stringify({
        soak: { documents: DOCUMENTS, seconds, kills, documents_processed_more_than_once: retried, status: done.status, files: done.files, pages: done.pages },
        ledger: {
          pages_billable: usage.pages_billable - usageBefore.pages_billable,
          documents_billable: usage.documents_billable - usageBefore.documents_billable,
        },
        memory: { start: startMemory, end: endMemory, over_limit: memory },
        unexpected,
      }),
    );

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
        if (f.status !== 'failed' || !ERROR_IDS.includes(f.error_id as never) || f.error_id === 'sys_exception')
          problems.push(`${name(i)}: ${f.status} ${f.error_id}`);
      } else if (f.status !== 'completed') problems.push(`${name(i)}: ${f.status} ${f.error_id}`);
      else {
        const mmd = await readFile(join(root, 'soak', 'out', name(i).replace(/\.pdf$/, '.mmd')), 'utf8');
        const counts = d.perPage.map((s) => mmd.split(s).length - 1);
        if (counts.some((c) => c !== 1)) problems.push(`${name(i)}: page text counts ${counts.join(',')}`);
      }
    }
    assert.deepEqual(problems.slice(0, 20), []);
    assert.deepEqual(memory, [], 'memory at the end within 20 % of the start');
    console.log(`soak passed: ${DOCUMENTS} documents, ${kills} worker kills, nothing lost or doubled`);
  } finally {
    clearTimeout(killer);
    await app.stop();
    await rm(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
