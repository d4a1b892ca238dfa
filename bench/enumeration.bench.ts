/**
 * Enumeration at scale: a private-cloud job over N small objects on s3rver with no document
 * worker running (the pool is paused), so only listing, filtering, recording and queueing are
 * measured. Reports objects per second against a bare S3 listing of the same bucket in the same
 * run, and the appliance's resident memory as enumeration progresses.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { S3Storage } from '../core/storage/s3.js';
import { spawnAppliance } from '../test/support/appliance.js';
import { startS3rver } from '../test/support/s3rver.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 200_000);
const PER_FOLDER = 1000;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

export async function benchEnumeration(): Promise<Record<string, unknown>> {
  const s3 = await startS3rver();
  await s3.createBucket('bulk');
  // Lay the objects out in s3rver's own folder format: writing 200k through its HTTP API would
  // take longer than the benchmark itself.
  const body = Buffer.from('%PDF-1.4\n% tiny\n');
  const md5 = createHash('md5').update(body).digest('hex');
  let made = 0;
  for (let d = 0; made < OBJECTS; d++) {
    const dir = join(s3.directory, 'bulk', 'docs', `d${String(d).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < PER_FOLDER && made < OBJECTS; f++, made++) {
      const name = `f${String(f).padStart(4, '0')}.pdf`;
      writeFileSync(join(dir, `${name}._S3rver_object`), body);
      writeFileSync(join(dir, `${name}._S3rver_object.md5`), md5);
    }
  }
  const storage = new S3Storage({ bucket: 'bulk', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
  let t = performance.now();
  let bare = 0;
  for await (const _ of storage.list({ prefix: 'docs/' })) bare++;
  const bareRate = bare / ((performance.now() - t) / 1000);

  const app = await spawnAppliance({
    FOLIO_DOCUMENT_WORKERS: '0', FOLIO_DOCUMENT_WORKERS_EXPECTED: '0', FOLIO_LOG_LEVEL: 'error',
    FOLIO_S3_ENDPOINT: s3.endpoint, AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
  try {
    const rssStart = rssMb(app.proc.pid!);
    t = performance.now();
    const res = await fetch(`${app.url}/pco/v1/jobs`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { folder: 's3://bulk/docs/' }, output: { folder: 's3://bulk/out/', layout: 'mirror' }, options: {}, policy: {}, client_reference: `bench-${Date.now()}` }),
    });
    const { job_id } = (await res.json()) as { job_id: string };
    const samples: { listed: number; rssMb: number }[] = [];
    let job: any;
    for (;;) {
      job = await (await fetch(`${app.url}/pco/v1/jobs/${job_id}`)).json();
      samples.push({ listed: job.enumeration.files_listed, rssMb: Math.round(rssMb(app.proc.pid!)) });
      if (job.enumeration.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (performance.now() - t) / 1000;
    const rate = job.files.queued / seconds;
    const quarter = (q: number) => samples.find((s) => s.listed >= OBJECTS * q)?.rssMb ?? null;
    return {
      objects: OBJECTS,
      bare_listing_objects_per_second: Math.round(bareRate),
      enumerated_objects_per_second: Math.round(rate),
      ratio_to_bare_listing: Math.round((rate / bareRate) * 100) / 100,
      queued: job.files.queued,
      appliance_rss_mb: { start: Math.round(rssStart), at_25pct: quarter(0.25), at_50pct: quarter(0.5), at_75pct: quarter(0.75), end: samples.at(-1)?.rssMb, peak: Math.max(...samples.map((s) => s.rssMb)) },
    };
  } finally {
    await app.stop();
    await s3.stop();
  }
}
