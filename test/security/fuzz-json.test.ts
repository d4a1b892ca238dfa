import fc from 'fast-check';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { pcoClient } from '../support/pco-client.js';
import { answerProblem, send } from './support.js';

const RUNS = 200;

/** Bodies no JSON generator makes on its own: deep nesting, huge numbers, prototype keys, junk. */
const nest = (depth: number, open: string, close: string, leaf = '1') => open.repeat(depth) + leaf + close.repeat(depth);
const SPECIAL_BODIES = [
  nest(2000, '[', ']'),
  nest(2000, '{"a":', '}'),
  nest(2000, '{"input":', '}'),
  `{"input":${nest(2000, '{"folder":', '}', '"x"')}}`,
  `{"options":${nest(2000, '{"ocr":', '}', '{}')}}`,
  '{"__proto__":{"polluted":true,"status":"completed"},"input":{"folder":"file:///nonexistent/"}}',
  '{"constructor":{"prototype":{"polluted":true}},"input":{"__proto__":{"folder":"file:///etc/"}}}',
  '{"input":{"folder":"file:///nonexistent/","__proto__":{"recursive":"yes"}},"policy":{"__proto__":{"max_retries":-1}}}',
  '{"error_ids":{"__proto__":[]}}',
  '{"error_ids":["__proto__","constructor","toString"]}',
  '{"callback_url":{"__proto__":"https://x"}}',
  '{"force":"__proto__"}',
  '{"url":{"toString":"https://example.com/a.pdf"}}',
  '{"mmd":{"__proto__":"x"},"formats":{"__proto__":{"docx":true}}}',
  '1e999',
  '-1e999',
  '{"policy":{"max_retries":1e999,"max_pages_per_document":-1e999}}',
  '{"policy":{"max_retries":9007199254740993,"per_page_timeout_seconds":1e-320}}',
  '{"input":{"files":[' + Array.from({ length: 10_001 }, () => '"file:///x.pdf"').join(',') + ']}}',
  '"' + '\u{1F600}'.repeat(50_000) + '"',
  '{"name":"' + '\u202e\u0000'.repeat(20_000).replace(/\u0000/g, '\\u0000') + '"}',
  '',
  ' ',
  'null',
  'true',
  '[]',
  '{',
  '{"a":}',
  '\ufeff{}',
  '{"a":1,"a":2}',
  'NaN',
  'undefined',
];

const FIELDS = [
  'name',
  'input',
  'folder',
  'files',
  'recursive',
  'include',
  'exclude',
  'output',
  'layout',
  'on_existing',
  'options',
  'conversion_formats',
  'extra_outputs',
  'ocr',
  'policy',
  'max_pages_per_document',
  'per_page_timeout_seconds',
  'max_retries',
  'priority',
  'callback_url',
  'callback_events',
  'callback_headers',
  'client_reference',
  'error_ids',
  'force',
  'url',
  'mmd',
  'formats',
  'page_ranges',
  'data_options',
  'streaming',
  'metadata',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
];

const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 0.1, 2 ** 31, -(2 ** 63)),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    'file:///nonexistent/',
    's3://b/',
    'gs://b/x/',
    'https://127.0.0.1/',
    'https://169.254.169.254/latest/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'mirror',
    'flat',
    'alongside',
    'replace',
    'high',
    'job.completed',
    'docx',
    '.lines.mmd.json',
    '',
  ),
);
/** Objects shaped like the real bodies (known field names, nested once or twice) with wrong values. */
const shaped: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  obj: fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof({ depthSize: 'small' }, leaf, tie('obj'), fc.array(tie('obj'), { maxLength: 3 })), { maxKeys: 6 }),
})).obj;

const bodyArb = fc.oneof(
  { weight: 4, arbitrary: shaped.map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_BODIES) },
);

describe('fuzz: every JSON endpoint answers a spec envelope, never a 5xx', () => {
  let app: ApplianceProcess;
  let root: string;
  let jobId: string;
  let creds: Record<string, string>;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'folio-fuzz-'));
    await writeFile(join(root, 'a.pdf'), await pagedPdf(1));
    app = await spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1' });
    const pco = pcoClient(app.url);
    const job = await pco.create({ input: { folder: `file://${root}/` } });
    jobId = job.body.job_id;
    await pco.settled(jobId, 60_000);
    const made = await pco.call('POST', '/pco/v1/apps', { name: 'fuzz' });
    const key = await pco.call('POST', `/pco/v1/apps/${made.body.app_id}/keys`);
    creds = { app_id: key.body.app_id, app_key: key.body.app_key };
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await rm(root, { recursive: true, force: true });
  });

  const endpoints: [string, () => string, boolean][] = [
    ['POST /pco/v1/jobs', () => '/pco/v1/jobs', false],
    ['POST /pco/v1/jobs?dry_run=true', () => '/pco/v1/jobs?dry_run=true', false],
    ['POST /pco/v1/jobs/{id}/retry', () => `/pco/v1/jobs/${jobId}/retry`, false],
    ['POST /pco/v1/webhook-config/secret', () => '/pco/v1/webhook-config/secret', false],
    ['POST /pco/v1/webhook-config/test', () => '/pco/v1/webhook-config/test', false],
    ['POST /v3/converter', () => '/v3/converter', true],
    ['POST /v3/pdf', () => '/v3/pdf', true],
  ];

  for (const [name, path, keyed] of endpoints) {
    it(`${name}: ${RUNS} bodies`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(bodyArb, async (body) => {
          const a = await send(app.url, 'POST', path(), body, keyed ? creds : {});
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          const problem = answerProblem(a);
          if (problem) throw new Error(`${name} with ${body.slice(0, 200)} → ${problem}`);
        }),
        { numRuns: RUNS, endOnFailure: true, interruptAfterTimeLimit: 60_000 },
      );
      // The deterministic specials are sent every time, not left to chance.
      for (const body of SPECIAL_BODIES) {
        const a = await send(app.url, 'POST', path(), body, keyed ? creds : {});
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        expect(answerProblem(a), `${name} with ${body.slice(0, 120)}`).toBeUndefined();
      }
      console.log(`[fuzz] ${name}: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect((await fetch(`${app.url}/health`)).status).toBe(200);
    }, 120_000);
  }

  it('keeps serving afterwards: /health 200, status, the earlier job intact, no unhandled errors logged', async () => {
    expect((await fetch(`${app.url}/health`)).status).toBe(200);
    expect((await send(app.url, 'GET', '/pco/v1/status')).status).toBe(200);
    const job = await send(app.url, 'GET', `/pco/v1/jobs/${jobId}`);
    expect(job.body.polluted).toBeUndefined();
    expect(['completed', 'processing']).toContain(job.body.status);
    expect(app.output()).not.toMatch(/unhandled error/);
  });
});
