/**
 * Enumeration at scale: a private-cloud job over N small objects on s3rver with no document
 * worker running (the pool is paused), so only listing, filtering, recording and queueing are
 * measured. Reports objects per second against a bare S3 listing of the same bucket in the same
 * run, and the appliance's resident memory as enumeration progresses. A second job over the same
 * folder then finds every output present (on_existing: skip, the default), the path where the
 * existence checks answer yes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { S3Storage } from '../core/storage/s3.js';
import { spawnAppliance } from '../test/support/appliance.js';
import { memoryMiB } from '../test/support/proc-memory.js';
import { startS3rver } from '../test/support/s3rver.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 200_000);
const PER_FOLDER = 1000;

const rssMb = (pid: number) => memoryMiB(pid).rss;

export async function benchEnumeration(): Promise<Record<string, unknown>> {
  const s3 = await startS3rver();
  await s3.createBucket('bulk');
  // Lay the objects out in s3rver's own folder format: writing 200k through its HTTP API would
  // take longer than the benchmark itself.
  layOut(s3.directory, 'docs', '.pdf', Buffer.from('%PDF-1.4\n% tiny\n'));
  // done/ holds the mirror layout's output of every source, as a finished earlier job leaves it.
  layOut(s3.directory, 'done', '.mmd', Buffer.from('# done\n'));
  const storage = new S3Storage({ bucket: 'bulk', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
  const t = performance.now();
  let bare = 0;
  for await (const _ of storage.list({ prefix: 'docs/' })) bare++;
  const bareRate = bare / ((performance.now() - t) / 1000);
  const bareLoad = oneMinuteLoad();

  const app = await spawnAppliance({
    FOLIO_DOCUMENT_WORKERS: '0',
    FOLIO_DOCUMENT_WORKERS_EXPECTED: '0',
    FOLIO_LOG_LEVEL: 'error',
    FOLIO_S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
  try {
    const rssStart = rssMb(app.proc.pid!);
    const first = await enumerate(app.url, app.proc.pid!, 's3://bulk/out/');
    const quarter = (q: number) => first.samples.find((s) => s.listed >= OBJECTS * q)?.rssMb ?? null;
    const rerun = await enumerate(app.url, app.proc.pid!, 's3://bulk/done/');
    return {
      objects: OBJECTS,
      bare_listing_objects_per_second: Math.round(bareRate),
      bare_listing_load_average: bareLoad,
      enumerated_objects_per_second: Math.round(first.rate),
      ratio_to_bare_listing: Math.round((first.rate / bareRate) * 100) / 100,
      enumeration_load_average: first.load,
      queued: first.job.files.queued,
      appliance_rss_mb: {
        start: Math.round(rssStart),
        at_25pct: quarter(0.25),
        at_50pct: quarter(0.5),
        at_75pct: quarter(0.75),
        end: first.samples.at(-1)?.rssMb,
        peak: first.peakRssMb,
      },
      rerun_all_outputs_present: {
        objects_per_second: Math.round(rerun.rate),
        ratio_to_bare_listing: Math.round((rerun.rate / bareRate) * 100) / 100,
        load_average: rerun.load,
        skipped: rerun.job.files.skipped,
        appliance_rss_mb_peak: rerun.peakRssMb,
      },
    };
  } finally {
    await app.stop();
    await s3.stop();
  }
}

/** Writes OBJECTS tiny objects under `top/` straight into s3rver's folder format, PER_FOLDER a folder. */
function layOut(s3Directory: string, top: string, extension: string, body: Buffer): void {
  const md5 = createHash('md5').update(body).digest('hex');
  let made = 0;
  for (let d = 0; made < OBJECTS; d++) {
    const dir = join(s3Directory, 'bulk', top, `d${String(d).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_FOLDER && made < OBJECTS; f++, made++) {
      const name = `f${String(f).padStart(4, '0')}${extension}`;
      writeFileSync(join(dir, `${name}._S3rver_object`), body);
      writeFileSync(join(dir, `${name}._S3rver_object.md5`), md5);
    }
  }
}

/** Runs one job over the bucket's docs/ and follows its enumeration: files it recorded per second, memory. */
async function enumerate(url: string, pid: number, outputFolder: string) {
  const t = performance.now();
  const res = await fetch(`${url}/pco/v1/jobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      input: { folder: 's3://bulk/docs/' },
      output: { folder: outputFolder, layout: 'mirror' },
      options: {},
      policy: {},
      client_reference: `bench-${outputFolder}-${Date.now()}`,
    }),
  });
  const { job_id } = (await res.json()) as { job_id: string };
  const samples: { listed: number; rssMb: number }[] = [];
  let job: any;
  for (;;) {
    job = await (await fetch(`${url}/pco/v1/jobs/${job_id}`)).json();
    samples.push({ listed: job.enumeration.files_listed, rssMb: Math.round(rssMb(pid)) });
    if (job.enumeration.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const seconds = (performance.now() - t) / 1000;
  return { job, samples, rate: (job.files.queued + job.files.skipped) / seconds, load: oneMinuteLoad(), peakRssMb: Math.max(...samples.map((s) => s.rssMb)) };
}

/** How shared the 2 cores were while a measure ran: the numbers swing with it. */
const oneMinuteLoad = () => Math.round(loadavg()[0]! * 10) / 10;
