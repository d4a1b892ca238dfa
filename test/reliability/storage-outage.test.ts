import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../core/storage/s3.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { startRestartableS3rver } from './support.js';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

const FILES = 30;
const PAGES = 10;

// QUALITY.md 4: storage unreachable mid-job. Files fail with a storage id, the job settles as
// completed_with_failures without hanging, and retry completes it once the server is back.
describe('object storage unreachable mid-job', () => {
  let s3: Awaited<ReturnType<typeof startRestartableS3rver>>;
  let app: ApplianceProcess;

  beforeAll(async () => {
    s3 = await startRestartableS3rver();
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await client.send(new CreateBucketCommand({ Bucket: 'papers' }));
    client.destroy();
    const bucket = new S3Storage({ bucket: 'papers', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    const pdf = await pagedPdf(PAGES);
    for (let i = 0; i < FILES; i++) await bucket.write(`in/doc-${String(i).padStart(2, '0')}.pdf`, pdf);
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '2',
      FOLIO_S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await s3?.stop();
  });

  it('fails files with a storage id, settles, and retry recovers them', async () => {
    const pco = pcoClient(app.url);
    const created = await pco.create({
      input: { folder: 's3://papers/in/' },
      output: { folder: 's3://papers/out/', layout: 'mirror' },
      policy: { max_retries: 1 },
    });
    expect(created.status).toBe(201);
    const id = created.body.job_id;
    await waitFor(async () => (await pco.job(id)).body.files.completed >= 2, 60_000, 20);
    await s3.kill();
    const downAt = Date.now();
    const health = await fetch(`${app.url}/health`, { signal: AbortSignal.timeout(5_000) });
    const healthBody = (await health.json()) as any;

    const failedJob = await pco.settled(id, 120_000);
    const settleMs = Date.now() - downAt;
    expect(failedJob.status).toBe('completed_with_failures');
    expect(failedJob.files.failed).toBeGreaterThan(0);
    expect(sumOfFive(failedJob.files)).toBe(failedJob.files.discovered);
    const failed = (await pco.call('GET', `/pco/v1/jobs/${id}/files?status=failed&limit=100`)).body.files as { error_id: string }[];
    const ids = [...new Set(failed.map((f) => f.error_id))];
    expect(ids.length).toBeGreaterThan(0);
    for (const e of ids) expect(['storage_throttled', 'not_found']).toContain(e);

    await s3.start();
    await waitFor(async () => (await fetch(`${app.url}/health`)).status === 200, 30_000, 100);
    const retried = await pco.call('POST', `/pco/v1/jobs/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.requeued).toBe(failedJob.files.failed);
    const done = await pco.settled(id, 120_000);
    console.log(
      `[storage-outage] health while down: ${health.status} ${JSON.stringify({ storage_connected: healthBody.storage_connected })}; job settled ${settleMs} ms after the outage began with ${failedJob.files.failed}/${FILES} failed (${ids.join(', ')}); retry requeued ${retried.body.requeued} and the job is ${done.status}`,
    );
    expect(done.status).toBe('completed');
    expect(done.files).toMatchObject({ discovered: FILES, completed: FILES, failed: 0 });
    expect(done.pages).toEqual({ completed: FILES * PAGES, failed: 0 });
  }, 240_000);
});
