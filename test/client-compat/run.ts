import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnAppliance } from '../support/appliance.js';
import { selfSignedCert } from '../support/self-signed.js';
import { localFixtures, remoteFixtures } from './fixtures.js';
import { summarise } from './junit.js';

/**
 * `make client-compat`: the official Python client's own test suite (Mathpix/mpxpy, checked out
 * into the git-ignored .client-compat/mpxpy) against a freshly started appliance. The files the
 * suite fetches from mathpix-ocr-examples.s3.amazonaws.com are served by a local HTTPS server:
 * the appliance (and its workers) resolve that name to 127.0.0.1 through test/support/dns-answers.cjs,
 * trust the server's certificate, and allow private URLs for this run only. docs/client-compat.md.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLIENT = join(ROOT, '.client-compat', 'mpxpy');
const EXAMPLES_HOST = 'mathpix-ocr-examples.s3.amazonaws.com';
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';

if (!existsSync(join(CLIENT, 'mpxpy', '__init__.py'))) {
  console.error(`The client is not checked out. Get it (never commit it; .client-compat/ is git-ignored):
  git clone https://github.com/Mathpix/mpxpy ${CLIENT}
(or, from a bare mirror: git --git-dir=<mirror> archive HEAD | tar -x -C ${CLIENT}). Then run make client-compat again.`);
  process.exit(2);
}

/**
 * Replaces each Git LFS pointer among the client's fixtures with a file of our own, and renews the
 * ones an earlier run wrote (listed in tests/files/.folio-stand-ins.json); a real original stays.
 */
async function writeFixtures(): Promise<void> {
  const list = join(CLIENT, 'tests', 'files', '.folio-stand-ins.json');
  const ours = new Set<string>(existsSync(list) ? (JSON.parse(readFileSync(list, 'utf8')) as string[]) : []);
  for (const [path, bytes] of Object.entries(await localFixtures())) {
    const target = join(CLIENT, 'tests', 'files', path);
    const current = existsSync(target) ? readFileSync(target, 'utf8').slice(0, 40) : '';
    if (existsSync(target) && !ours.has(path) && !current.startsWith('version https://git-lfs')) continue;
    writeFileSync(target, bytes);
    ours.add(path);
  }
  writeFileSync(list, JSON.stringify([...ours].sort()));
}

/** The stand-in for the public examples bucket, over HTTPS with a certificate for its name. */
async function startExamplesServer() {
  const { dir, certFile: cert, keyFile: key } = selfSignedCert('folio-compat-tls-', EXAMPLES_HOST, `DNS:${EXAMPLES_HOST}`);
  const files = await remoteFixtures();
  const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
    const body = files[new URL(req.url ?? '/', 'https://x').pathname];
    if (!body) return void res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
    res.writeHead(200, { 'content-type': req.url!.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { dir, cert, port: (server.address() as AddressInfo).port, close: () => server.close() };
}

async function main(): Promise<number> {
  await writeFixtures();
  const examples = await startExamplesServer();
  const env = {
    FOLIO_ALLOW_PRIVATE_URLS: 'true',
    NODE_EXTRA_CA_CERTS: examples.cert,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(ROOT, 'test/support/dns-answers.cjs')}`.trim(),
    FOLIO_TEST_DNS_ANSWERS: JSON.stringify({ [EXAMPLES_HOST]: [['127.0.0.1']] }),
    FOLIO_TEST_DNS_LOG: join(examples.dir, 'dns.log'),
    FOLIO_TEST_NAT: JSON.stringify({ '127.0.0.1:443': `127.0.0.1:${examples.port}` }),
  };
  // A loaded machine can take minutes to bring every worker up.
  const app = await spawnAppliance(env, { startTimeoutMs: 300_000 });
  try {
    const post = async (path: string, body: unknown) =>
      (await (await fetch(app.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as Record<
        string,
        string
      >;
    const { app_id } = await post('/pco/v1/apps', { name: 'mpxpy', group_id: 'client-compat' });
    const { app_key } = await post(`/pco/v1/apps/${app_id}/keys`, {});
    const junit = join(examples.dir, 'junit.xml');
    const selected = process.argv.slice(2);
    const args = [
      '-m',
      'pytest',
      ...(selected.length ? selected : ['tests']),
      '-p',
      'no:cacheprovider',
      '-o',
      'log_cli=false',
      '-q',
      '-rfE',
      `--junitxml=${junit}`,
    ];
    const code = await new Promise<number>((r) => {
      const py = spawn(PYTHON, args, {
        cwd: CLIENT,
        stdio: 'inherit',
        env: {
          ...process.env,
          PYTHONPATH: join(ROOT, 'test/client-compat/python'),
          MATHPIX_APP_ID: app_id!,
          MATHPIX_APP_KEY: app_key!,
          MATHPIX_URL: app.url,
          MATHPIX_FILES_API_URL: app.url,
        },
      });
      py.once('exit', (c) => r(c ?? 1));
    });
    if (existsSync(junit)) console.log(summarise(readFileSync(junit, 'utf8')));
    if (code !== 0 && process.env.CLIENT_COMPAT_LOG) writeFileSync(process.env.CLIENT_COMPAT_LOG, app.output());
    return code;
  } finally {
    await app.stop();
    examples.close();
    rmSync(examples.dir, { recursive: true, force: true });
  }
}

process.exit(await main());
