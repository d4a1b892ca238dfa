import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { pagedPdf } from '../support/pdf-fixtures.js';
import { waitFor } from '../support/ports.js';
import { INTERNAL_ANSWERS, INTERNAL_LITERALS, PUBLIC_IP, type PublicHost, startPublicHost, startVictim, type Victim } from './ssrf-support.js';
import { type Answer, send } from './support.js';

const AZURE_ANSWERS: Record<string, string> = {
  'loopback.blob.core.windows.net': '127.0.0.1',
  'metadata.blob.core.windows.net': '169.254.169.254',
  'v6mapped.blob.core.windows.net': '::ffff:127.0.0.1',
};
const REBINDING = ['rebind-text.ssrf.test', 'rebind-pdf.ssrf.test', 'rebind-callback.ssrf.test'];

/**
 * QUALITY.md 8 against a real appliance and its workers. Every process runs with deny-egress.cjs
 * (nothing but loopback leaves) and dns-answers.cjs, the injected resolver: names under
 * .ssrf.test (and a few Azure blob hosts) answer internal addresses, a public one, or a public
 * one first and loopback after (rebinding). "The Internet" is a local server reached through a
 * NAT from 93.184.216.34. A victim listens on every local address; it must see no connection.
 */
describe('SSRF: callback URLs, document and image URLs, data-source endpoints', () => {
  let app: ApplianceProcess;
  let victim: Victim;
  let internet: PublicHost;
  let dir: string;
  let auth: Record<string, string>;
  const dnsLog = () => readFile(join(dir, 'dns.log'), 'utf8').catch(() => '');
  const egressLog = () => readFile(join(dir, 'egress.log'), 'utf8').catch(() => '');
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => send(app.url, 'POST', path, JSON.stringify(body), headers);
  const pcoJob = (extra: Record<string, unknown>) =>
    post('/pco/v1/jobs', { input: { folder: `file://${dir}/in/` }, output: { folder: `file://${dir}/out-${Math.random()}/`, layout: 'mirror' }, ...extra });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-ssrf-'));
    await mkdir(join(dir, 'in'));
    const pdf = await pagedPdf(1);
    await writeFile(join(dir, 'in', 'one.pdf'), pdf);
    const png = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    victim = await startVictim();
    internet = await startPublicHost({ png, pdf });
    const answers: Record<string, string[][]> = { 'public.ssrf.test': [[PUBLIC_IP]], 'mixed.ssrf.test': [[PUBLIC_IP, '127.0.0.1']] };
    for (const [name, address] of Object.entries({ ...INTERNAL_ANSWERS, ...AZURE_ANSWERS })) answers[name] = [[address]];
    for (const name of REBINDING) answers[name] = [[PUBLIC_IP], ['127.0.0.1']];
    const preload = (f: string) => `--require ${resolve('test/support', f)}`;
    app = await spawnAppliance({
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${preload('deny-egress.cjs')} ${preload('dns-answers.cjs')}`.trim(),
      FOLIO_DENY_EGRESS_LOG: join(dir, 'egress.log'),
      FOLIO_TEST_DNS_ANSWERS: JSON.stringify(answers),
      FOLIO_TEST_DNS_LOG: join(dir, 'dns.log'),
      FOLIO_TEST_NAT: JSON.stringify(internet.nat),
      NODE_EXTRA_CA_CERTS: internet.certFile,
      FOLIO_DOCUMENT_WORKERS: '1',
      FOLIO_INFERENCE_WORKERS: '1',
    });
    const made = await post('/pco/v1/apps', { name: `ssrf-${Date.now()}` });
    const key = await post(`/pco/v1/apps/${made.body.app_id}/keys`, {});
    auth = { app_id: made.body.app_id, app_key: key.body.app_key };
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await victim?.close();
    await internet?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** [status, error id] of an answer, for compact comparison. */
  const outcome = (a: Answer) => [a.status, a.body?.error ?? null];

  it('refuses every internal answer and spelling at all four URL entry points with the spec ids', async () => {
    const hosts = [...Object.keys(INTERNAL_ANSWERS), 'mixed.ssrf.test', ...INTERNAL_LITERALS];
    const port = victim.port;
    const entryPoints: [string, (host: string) => Promise<Answer>, unknown[]][] = [
      ['pco callback_url', (h) => pcoJob({ callback_url: `https://${h}:${port}/hook` }), [400, 'invalid_callback']],
      [
        'v3/pdf callback_url',
        (h) => post('/v3/pdf', { url: 'https://public.ssrf.test/doc.pdf', callback_url: `https://${h}:${port}/hook` }, auth),
        [400, 'bad_request'],
      ],
      ['v3/pdf url', (h) => post('/v3/pdf', { url: `http://${h}:${port}/doc.pdf` }, auth), [400, 'bad_request']],
      ['v3/text src', (h) => post('/v3/text', { src: `http://${h}:${port}/image.png` }, auth), [200, 'image_download_error']],
    ];
    const wrong: string[] = [];
    for (const [name, call, expected] of entryPoints) {
      for (const host of hosts) {
        const got = outcome(await call(host));
        if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`${name} ${host}: ${JSON.stringify(got)}`);
      }
    }
    const asked = new Set((await dnsLog()).split('\n').map((l) => l.split(' ')[1]));
    console.log(
      `[ssrf] ${hosts.length} hosts x ${entryPoints.length} entry points: ${hosts.length * entryPoints.length - wrong.length} refused as specified; resolver asked for ${[...asked].filter(Boolean).length} names; victim connections ${victim.connections.length}`,
    );
    expect(wrong).toEqual([]);
    // Each name was really looked up through the injected resolver, not refused by its spelling.
    for (const name of Object.keys(INTERNAL_ANSWERS)) expect(asked.has(name), name).toBe(true);
    expect(victim.connections).toEqual([]);
  }, 120_000);

  it('does not follow redirects to internal addresses from a public host', async () => {
    const targets = [`http://127.0.0.1:${victim.port}/x`, `http://[::ffff:127.0.0.1]:${victim.port}/x`, 'http://169.254.169.254/latest/meta-data/'];
    for (const target of targets) {
      const via = `http://public.ssrf.test/to/${encodeURIComponent(target)}`;
      expect(outcome(await post('/v3/text', { src: via }, auth))).toEqual([200, 'image_download_error']);
      const pdf = await post('/v3/pdf', { url: via }, auth);
      expect(pdf.status, pdf.text).toBe(200);
      const done = await waitFor(
        async () => {
          const s = await send(app.url, 'GET', `/v3/pdf/${pdf.body.pdf_id}`, undefined, auth);
          return ['completed', 'error'].includes(s.body?.status) && s.body;
        },
        60_000,
        200,
      );
      expect([done.status, done.error]).toEqual(['error', 'pdf_download_error']);
    }
    const hook = `https://public.ssrf.test/to/${encodeURIComponent(`https://127.0.0.1:${victim.port}/hook`)}`;
    const job = await pcoJob({ callback_url: hook });
    expect(job.status, job.text).toBe(201);
    await waitFor(() => internet.requests.some((r) => r.startsWith('POST /to/')), 60_000, 200);
    await new Promise((r) => setTimeout(r, 1_000));
    console.log(
      `[ssrf] redirects: public host answered ${internet.requests.filter((r) => r.includes('/to/')).length} requests with 302; victim connections ${victim.connections.length}`,
    );
    expect(internet.requests.filter((r) => r.startsWith('GET /to/')).length).toBe(targets.length * 2);
    expect(victim.connections).toEqual([]);
  }, 150_000);

  it('pins the checked address and re-checks in every process, so DNS rebinding reaches nothing inside', async () => {
    // /v3/text resolves once and connects to that address: the public host serves the image.
    const text = await post('/v3/text', { src: 'http://rebind-text.ssrf.test/image.png' }, auth);
    expect(text.status, text.text).toBe(200);
    expect(text.body?.error).not.toBe('image_download_error');
    expect(internet.requests).toContain('GET /image.png');
    // /v3/pdf: checked public by the appliance, re-resolved to loopback by the worker, refused there.
    const pdf = await post('/v3/pdf', { url: `http://rebind-pdf.ssrf.test:${victim.port}/doc.pdf` }, auth);
    expect(pdf.status, pdf.text).toBe(200);
    const done = await waitFor(
      async () => {
        const s = await send(app.url, 'GET', `/v3/pdf/${pdf.body.pdf_id}`, undefined, auth);
        return ['completed', 'error'].includes(s.body?.status) && s.body;
      },
      60_000,
      200,
    );
    expect([done.status, done.error]).toEqual(['error', 'pdf_download_error']);
    // A job callback: public when the job is created, loopback when job.completed is delivered.
    const job = await pcoJob({ callback_url: `https://rebind-callback.ssrf.test:${victim.port}/hook` });
    expect(job.status, job.text).toBe(201);
    const lookups = (name: string) => dnsLog().then((t) => t.split('\n').filter((l) => l.split(' ')[1] === name));
    await waitFor(async () => (await lookups('rebind-callback.ssrf.test')).length >= 2, 60_000, 200);
    await new Promise((r) => setTimeout(r, 1_000));
    const pdfLookups = await lookups('rebind-pdf.ssrf.test');
    console.log(
      `[ssrf] rebinding: pdf looked up by ${new Set(pdfLookups.map((l) => l.split(' ')[0])).size} processes (${pdfLookups.map((l) => l.split(' ')[2]).join(' then ')}); callback lookups ${(await lookups('rebind-callback.ssrf.test')).length}; victim connections ${victim.connections.length}`,
    );
    expect(new Set(pdfLookups.map((l) => l.split(' ')[0])).size).toBe(2);
    expect(victim.connections).toEqual([]);
    // Nothing tried to leave the machine either: every connection went to loopback or through the NAT.
    expect((await egressLog()).split('\n').filter((l) => l.includes('"kind":"connect"'))).toEqual([]);
  }, 150_000);

  // Runs last: a connection it lets through would be counted by the tests after it.
  it('refuses pco data-source endpoints (Azure blob hosts) that resolve inside', async () => {
    const wrong: string[] = [];
    for (const host of Object.keys(AZURE_ANSWERS)) {
      const before = victim.connections.length;
      const a = await pcoJob({ input: { folder: `https://${host}/papers/in/` }, output: { folder: `https://${host}/papers/out/`, layout: 'mirror' } }).catch(
        (err: Error) => err,
      );
      const reached = victim.connections.length - before;
      if (a instanceof Error) wrong.push(`${host}: no answer (${a.name}), victim reached ${reached} times`);
      else if (a.status !== 400 || !['input_folder_unreadable', 'bad_request'].includes(a.body?.error) || reached)
        wrong.push(`${host}: ${JSON.stringify(outcome(a))}, victim reached ${reached} times`);
    }
    console.log(
      `[ssrf] azure endpoints: ${Object.keys(AZURE_ANSWERS).length - wrong.length}/${Object.keys(AZURE_ANSWERS).length} refused\n  ${wrong.join('\n  ')}`,
    );
    expect(wrong).toEqual([]);
    expect(victim.connections).toEqual([]);
  }, 120_000);
});
