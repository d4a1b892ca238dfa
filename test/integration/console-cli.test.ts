import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf, truncatedPdf } from '../support/pdf-fixtures.js';
import { freePort } from '../support/ports.js';
import { folio } from '../support/folio-cli.js';

/** Enough pages that a watch started after `jobs create` returns still sees the job running. */
const GOOD_FILES = 90;
const PAGES_PER_FILE = 6;

// The folio operator CLI against a real appliance with one document and one inference worker.
describe('folio CLI', () => {
  let app: ApplianceProcess;
  let root: string;
  let jobId: string;
  const run = (...args: string[]) => folio(args, { FOLIO_URL: app.url });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-cli-'));
    await mkdir(join(root, 'papers'));
    await mkdir(join(root, 'clean'));
    const pdf = await pagedPdf(PAGES_PER_FILE);
    for (let i = 0; i < GOOD_FILES; i++) await writeFile(join(root, 'papers', `doc-${String(i).padStart(3, '0')}.pdf`), pdf);
    await writeFile(join(root, 'papers', 'bad.pdf'), await truncatedPdf());
    await writeFile(join(root, 'clean', 'one.pdf'), await pagedPdf(2));
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '1' });
  });
  afterAll(async () => {
    await app?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('prints the status summary, and health with exit 0 while ok', async () => {
    const status = await run('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^appliance\s+http:\/\/127\.0\.0\.1:\d+$/m);
    expect(status.stdout).toMatch(/^redis\s+connected$/m);
    expect(status.stdout).toMatch(/^gpu workers\s+1\/1 alive$/m);
    expect(status.stdout).toMatch(/^queues\s+documents \d+, pages \d+, jobs \d+$/m);

    const health = await run('health');
    expect(health.code).toBe(0);
    expect(health.stdout.split('\n')[0]).toBe('ok');
    const raw = await run('health', '--json');
    expect(JSON.parse(raw.stdout)).toMatchObject({ status: 'ok', redis_connected: true, storage_connected: true });
  });

  it('estimates with --dry-run without creating a job', async () => {
    const dry = await run('jobs', 'create', '--input', `file://${root}/papers/`, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^files\\s+${GOOD_FILES + 1} to consider, 0 excluded, 0 already processed$`, 'm'));
    expect((await run('jobs', 'list', '--json')).stdout).toContain('"jobs": []');
  });

  it('creates a job and watches it to the end: progress lines, final counts, exit 2 for a corrupt file', async () => {
    const created = await run('jobs', 'create', '--input', `file://${root}/papers/`, '--name', 'papers', '--priority', 'high');
    expect(created.code, created.stderr).toBe(0);
    jobId = /^created job (job_[0-9a-f]+)$/m.exec(created.stdout)![1]!;

    const watch = await run('jobs', 'watch', jobId, '--interval', '200');
    expect(watch.code, watch.stderr).toBe(2);
    const progress = watch.stdout.split('\n').filter((l) => /^\[\d\d:\d\d:\d\d\] \w+ {2}files \d+\/\d+ \(\d+ failed/.test(l));
    expect(
      progress.some((l) => / (enumerating|processing) {2}files /.test(l)),
      watch.stdout,
    ).toBe(true);
    expect(progress.at(-1)).toMatch(/pages \d+ .* pages\/min {2}eta /);
    const pages = GOOD_FILES * PAGES_PER_FILE;
    expect(watch.stdout).toContain(
      `completed_with_failures: ${GOOD_FILES + 1} files, ${GOOD_FILES} completed, 1 failed, 0 skipped; ${pages} pages completed, 0 failed`,
    );
    expect(watch.stdout).toContain(`failed files: folio jobs files ${jobId} --status failed`);

    const again = await run('jobs', 'create', '--input', `file://${root}/papers/`);
    expect(again.stdout).toContain(`job ${jobId} already exists with this spec (completed_with_failures)`);
  });

  it('lists jobs as a table and as --json', async () => {
    const list = await run('jobs', 'list');
    expect(list.code, list.stderr).toBe(0);
    const [header, row] = list.stdout.trim().split('\n');
    expect(header).toMatch(/^JOB ID\s+NAME\s+STATUS\s+FILES\s+FAILED\s+PAGES\s+CREATED$/);
    expect(row).toMatch(
      new RegExp(`^${jobId}\\s+papers\\s+completed_with_failures\\s+${GOOD_FILES + 1}/${GOOD_FILES + 1}\\s+1\\s+${GOOD_FILES * PAGES_PER_FILE}\\s+\\d{4}-`),
    );

    const json = await run('jobs', 'list', '--json');
    const body = JSON.parse(json.stdout);
    expect(body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([jobId]);
    expect(body.next_cursor).toBeNull();
    const get = await run('--json', 'jobs', 'get', jobId);
    expect(JSON.parse(get.stdout)).toMatchObject({ job_id: jobId, spec: { policy: { priority: 'high' } } });
  });

  it("shows a failed file's error id with files --status failed", async () => {
    const failed = await run('jobs', 'files', jobId, '--status', 'failed');
    expect(failed.code, failed.stderr).toBe(0);
    const lines = failed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^DOCUMENT ID\s+KEY\s+STATUS\s+PAGES\s+TRIES\s+ERROR$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^doc_[0-9a-f]+\s+\S*bad\.pdf\s+failed\s+0\s+1\s+pdf_content_type: /);
  });

  it('prints the report as NDJSON, one line per finished file', async () => {
    const report = await run('jobs', 'report', jobId);
    expect(report.code, report.stderr).toBe(0);
    const rows = report.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(GOOD_FILES + 1);
    expect(rows.filter((r) => r.status === 'failed')).toEqual([expect.objectContaining({ error_id: 'pdf_content_type' })]);
    const failedOnly = await run('jobs', 'report', jobId, '--status', 'failed');
    expect(failedOnly.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('refuses to retry a job that finished without failures: error job_not_retryable, exit 1', async () => {
    const created = await run('jobs', 'create', '--input', `file://${root}/clean/`, '--json');
    const cleanId = JSON.parse(created.stdout).job_id as string;
    expect((await run('jobs', 'watch', cleanId, '--interval', '200')).code).toBe(0);

    const retry = await run('jobs', 'retry', cleanId);
    expect(retry.code).toBe(1);
    expect(retry.stderr).toMatch(/^error job_not_retryable: /m);
    expect(retry.stderr).toContain('hint: only finished jobs that were not cancelled can be retried');

    const missing = await run('jobs', 'get', 'job_0000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error job_not_found: /m);
  });

  it('prints usage as CSV with a header row', async () => {
    const csv = await run('usage', '--csv');
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...days] = csv.stdout.trim().split('\n');
    expect(header).toBe(
      'day,pages_billable,images_billable,documents_billable,pages_completed,pages_failed,documents_completed,documents_failed,images_completed,images_failed',
    );
    expect(days).toHaveLength(30);
    for (const d of days) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}(,\d+){9}$/);
  });

  it('says it cannot reach an appliance where nothing listens', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const res = await folio(['status'], { FOLIO_URL: url });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`cannot reach the appliance at ${url}`);
  });
});
