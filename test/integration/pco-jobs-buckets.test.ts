import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzureStorage } from '../../core/storage/azure.js';
import { S3Storage } from '../../core/storage/s3.js';
import type { Storage } from '../../core/storage/storage.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { type TestAzurite, startAzurite } from '../support/azurite.js';
import { HEADING_TEXT, headingAndParagraphsPdf, pagedPdf, truncatedPdf } from '../support/pdf-fixtures.js';
import { pcoClient, sumOfFive } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { type TestS3, startS3rver } from '../support/s3rver.js';

// Jobs over real object-storage servers: s3rver (S3 API) and Azurite (Azure Blob), with the
// appliance and its workers as real processes.
describe('pco jobs over S3 and Azure buckets', () => {
  let s3: TestS3;
  let azurite: TestAzurite;
  let app: ApplianceProcess;
  let pco: ReturnType<typeof pcoClient>;
  let bucket: Storage;
  let container: Storage;

  beforeAll(async () => {
    [s3, azurite] = await Promise.all([startS3rver(), startAzurite()]);
    await s3.createBucket('papers');
    await azurite.createContainer('papers');
    bucket = new S3Storage({ bucket: 'papers', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    container = new AzureStorage({ accountUrl: azurite.accountUrl, container: 'papers', accountKey: azurite.accountKey });
    for (const store of [bucket, container]) {
      await store.write('in/a.pdf', await headingAndParagraphsPdf());
      await store.write('in/deep/b.pdf', await pagedPdf(2));
      await store.write('in/broken.pdf', await truncatedPdf());
      await store.write('in/readme.md', '# not an input');
    }
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '2',
      FOLIO_S3_ENDPOINT: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      FOLIO_AZURE_ACCOUNT_KEY: azurite.accountKey,
      FOLIO_AZURE_EMULATOR: 'true',
    });
    pco = pcoClient(app.url);
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([s3?.stop(), azurite?.stop()]);
  });

  for (const [name, folder, store] of [
    ['s3', () => 's3://papers/in/', () => bucket],
    ['azure', () => `${azurite.accountUrl}/papers/in/`, () => container],
  ] as const) {
    it(`processes a ${name} folder alongside its sources, then retries the repaired file`, async () => {
      const created = await pco.create({ input: { folder: folder() } });
      expect(created.status).toBe(201);
      const done = await pco.settled(created.body.job_id);
      expect(done.status).toBe('completed_with_failures');
      expect(done.files).toMatchObject({ discovered: 3, completed: 2, failed: 1 });
      expect(done.files.discovered).toBe(sumOfFive(done.files));
      expect(done.enumeration).toMatchObject({ status: 'completed', files_listed: 4, files_excluded: 1 });
      expect((await store().readBuffer('in/a.mmd')).toString()).toContain(HEADING_TEXT);
      expect(await store().exists('in/deep/b.lines.json')).toBe(true);
      const failed = (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files?status=failed`)).body.files;
      expect(failed[0].error_id).toBe('pdf_content_type');
      expect(failed[0].outputs).toEqual({});

      await store().write('in/broken.pdf', await pagedPdf(1));
      expect((await pco.call('POST', `/pco/v1/jobs/${created.body.job_id}/retry`)).body.requeued).toBe(1);
      const after = await pco.settled(created.body.job_id);
      expect(after.status).toBe('completed');
      expect(await store().exists('in/broken.mmd')).toBe(true);
      expect(after.output.manifest_uri.startsWith(name === 's3' ? 's3://papers/in/_folio/' : `${azurite.accountUrl}/papers/in/_folio/`)).toBe(true);
    });
  }

  it('refuses a bucket that does not exist and an unreadable container', async () => {
    const res = await pco.create({ input: { folder: 's3://no-such-bucket/in/' } });
    expect(res.body.error).toBe('input_folder_unreadable');
    const az = await pco.create({ input: { folder: `${azurite.accountUrl}/missing/in/` } });
    expect(az.body.error).toBe('input_folder_unreadable');
  });

  it('finishes a job whose document worker is killed mid-document, each page once', async () => {
    const pdf = await pagedPdf(150);
    for (let i = 0; i < 4; i++) await bucket.write(`crash/doc-${i}.pdf`, pdf);
    const before = (await pco.call('GET', '/pco/v1/usage')).body.totals;
    const created = await pco.create({ input: { folder: 's3://papers/crash/' }, output: { folder: 's3://papers/crash-out/', layout: 'mirror' } });
    await waitFor(async () => (await pco.job(created.body.job_id)).body.files.processing > 0, 30_000, 20);
    const victims = app.childPids(/worker\/main\.ts document/);
    expect(victims.length).toBe(2);
    for (const pid of victims) process.kill(pid, 'SIGKILL');
    const done = await pco.settled(created.body.job_id, 120_000);
    expect(done.status).toBe('completed');
    expect(done.files).toMatchObject({ discovered: 4, completed: 4 });
    expect(done.pages).toEqual({ completed: 600, failed: 0 });
    const files = (await pco.call('GET', `/pco/v1/jobs/${created.body.job_id}/files`)).body.files;
    expect(files.some((f: any) => f.attempts > 1)).toBe(true);
    const mmd = (await bucket.readBuffer('crash-out/doc-0.mmd')).toString();
    for (const n of [1, 75, 150]) expect(mmd.split(`Body of page ${n}.`)).toHaveLength(2);
    // Billed once: the ledger's pages equal the job's pages, whatever was redone.
    const totals = await waitFor(async () => {
      const t = (await pco.call('GET', '/pco/v1/usage')).body.totals;
      return t.pages_billable - before.pages_billable >= 600 && t;
    }, 20_000);
    expect(totals.pages_billable - before.pages_billable).toBe(600);
    expect(totals.documents_billable - before.documents_billable).toBe(4);
  }, 180_000);
});
