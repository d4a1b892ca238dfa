import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AzureStorage } from '../../core/storage/azure.js';
import { S3Storage } from '../../core/storage/s3.js';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { AZURITE_ACCOUNT, type TestAzurite, startAzurite } from '../support/azurite.js';
import { HEADING_TEXT, headingAndParagraphsPdf } from '../support/pdf-fixtures.js';
import { waitFor } from '../support/ports.js';
import { type TestS3, startS3rver } from '../support/s3rver.js';

// Files API sources and destinations in customer buckets (s3rver, Azurite) reached through
// registered data sources. Lab mode lets endpoints named localhost reach the test servers.

async function call(base: string, method: string, path: string, key: string | null, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(key ? { app_key: key } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}

describe('Files API with data-source buckets', () => {
  let s3: TestS3;
  let azurite: TestAzurite;
  let app: ApplianceProcess;
  let key: string;
  let papers: S3Storage;
  let scans: AzureStorage;
  const api = (method: string, path: string, body?: unknown) => call(app.url, method, path, key, body);
  const azureUri = (path: string) => `${new URL(azurite.accountUrl).origin.replace('127.0.0.1', 'localhost')}/${AZURITE_ACCOUNT}/scans/${path}`;
  const settled = (fileId: string) =>
    waitFor(
      async () => {
        const s = await api('GET', `/files/v1/${fileId}`);
        return ['completed', 'error'].includes(s.body.status) && s.body;
      },
      60_000,
      250,
    );

  beforeAll(async () => {
    [s3, azurite] = await Promise.all([startS3rver(), startAzurite()]);
    await Promise.all([s3.createBucket('papers'), azurite.createContainer('scans')]);
    papers = new S3Storage({ bucket: 'papers', endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    scans = new AzureStorage({ accountUrl: azurite.accountUrl, container: 'scans', accountKey: azurite.accountKey });
    const pdf = await headingAndParagraphsPdf();
    await Promise.all([papers.write('in/paper.pdf', pdf, 'application/pdf'), scans.write('in/scan.pdf', pdf, 'application/pdf')]);
    app = await spawnAppliance({
      FOLIO_DOCUMENT_WORKERS: '1',
      FOLIO_INFERENCE_WORKERS: '0',
      FOLIO_ALLOW_PRIVATE_URLS: 'true',
      FOLIO_AZURE_EMULATOR: 'true',
      FOLIO_AZURE_ACCOUNT_KEY: azurite.accountKey,
      FOLIO_DATA_SOURCE_KEY: randomBytes(32).toString('hex'),
      FOLIO_FILES_JOB_COMPLETED_DELAY_SECONDS: '0',
    });
    const made = await call(app.url, 'POST', '/pco/v1/apps', null, { name: `buckets-${Date.now()}` });
    key = (await call(app.url, 'POST', `/pco/v1/apps/${made.body.app_id}/keys`, null)).body.app_key;
    const s3Source = await api('POST', '/files/v1/data-sources', {
      name: 'papers',
      provider: 'aws',
      auth_method: 'access_key',
      bucket: 'papers',
      region: 'us-east-1',
      endpoint: s3.endpoint.replace('127.0.0.1', 'localhost'),
      provider_specific_details: { access_key_id: s3.accessKeyId },
      secret: s3.secretAccessKey,
    });
    expect(s3Source.status, JSON.stringify(s3Source.body)).toBe(200);
    const azureSource = await api('POST', '/files/v1/data-sources', {
      name: 'scans',
      provider: 'azure',
      auth_method: 'azure_ad',
      bucket: 'scans',
      endpoint: new URL(azurite.accountUrl).origin.replace('127.0.0.1', 'localhost'),
      provider_specific_details: { azure_tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47', storage_account: AZURITE_ACCOUNT },
    });
    expect(azureSource.status, JSON.stringify(azureSource.body)).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([s3?.stop(), azurite?.stop()]);
  });

  it('reads an s3:// source and writes <destination_uri>/<basename>.<ext> into the bucket', async () => {
    const res = await api('POST', '/files/v1/uri', {
      source_uri: 's3://papers/in/paper.pdf',
      destination_uri: 's3://papers/out/',
      destination_basename: 'paper-result',
      image_output_mode: 'local',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await settled(res.body.file_id);
    expect(done).toMatchObject({ status: 'completed', destination_uri: 's3://papers/out/', destination_basename: 'paper-result' });
    expect((await papers.readBuffer('out/paper-result.mmd')).toString()).toContain(HEADING_TEXT);
    expect(await papers.exists('out/paper-result.lines.json')).toBe(true);
    const download = await fetch(`${app.url}/files/v1/${res.body.file_id}.mmd`, { headers: { app_key: key } });
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="paper-result.mmd"');
  });

  it('surfaces source problems on the file: no data source, missing object', async () => {
    const unregistered = await api('POST', '/files/v1/uri', { source_uri: 's3://elsewhere/in/paper.pdf' });
    expect(await settled(unregistered.body.file_id)).toMatchObject({
      status: 'error',
      error: 'data_source_not_found',
      error_info: { id: 'data_source_not_found' },
    });
    const missing = await api('POST', '/files/v1/uri', { source_uri: 's3://papers/in/absent.pdf' });
    expect(await settled(missing.body.file_id)).toMatchObject({ status: 'error', error: 'not_found' });
  });

  it('runs a job mixing s3 and blob sources, errors an unregistered bucket per item, and falls back to the output basename', async () => {
    const jobId = `buckets-${Date.now()}`;
    const long = 'b'.repeat(1010); // results/ + 1010 + .lines.mmd.json passes 1024 characters; output.* fits
    const sub = await api('POST', '/files/v1/jobs', {
      job_id: jobId,
      files: [
        { source_uri: 's3://papers/in/paper.pdf', custom_id: 's3' },
        { source_uri: azureUri('in/scan.pdf'), custom_id: 'blob', destination_uri: azureUri('results/'), destination_basename: long },
        { source_uri: 's3://no-source-bucket/in/paper.pdf', custom_id: 'unregistered' },
        { source_uri: 's3://papers/in/paper.pdf', custom_id: 'too-deep', destination_uri: azureUri(`${'d/'.repeat(260)}`) },
      ],
    });
    expect(sub.body).toEqual({ job_id: jobId, file_count: 4 });
    expect((await api('GET', `/files/v1/jobs/${jobId}/files/unregistered`)).body).toMatchObject({ status: 'error', error: 'data_source_not_found' });
    expect((await api('GET', `/files/v1/jobs/${jobId}/files/too-deep`)).body).toMatchObject({ status: 'error', error: 'destination_uri_too_long' });
    await api('POST', `/files/v1/jobs/${jobId}/finalize`);
    const job = await waitFor(
      async () => {
        const j = await api('GET', `/files/v1/jobs/${jobId}`);
        return j.body.status === 'completed' && j.body;
      },
      60_000,
      250,
    );
    expect(job).toMatchObject({ file_count: 4, files_completed: 2, files_errored: 2 });
    const blob = (await api('GET', `/files/v1/jobs/${jobId}/files/blob`)).body;
    expect(blob).toMatchObject({ status: 'completed', destination_basename: long });
    expect((await scans.readBuffer('results/output.mmd')).toString()).toContain(HEADING_TEXT);
  });
});
