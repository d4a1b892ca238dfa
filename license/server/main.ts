import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createVendorApp } from './app.js';
import { loadVendorEnv } from './env.js';
import { startVendorServer } from './serve.js';
import { VendorStore } from './store.js';

// The vendor's licence and metering service: `tsx license/server/main.ts`. Keys: license/server/keygen.ts.
let env;
try {
  env = loadVendorEnv();
} catch (err) {
  process.stderr.write(`folio-vendor: ${(err as Error).message}\n`);
  process.exit(2);
}
if (env.FOLIO_VENDOR_DB !== ':memory:') mkdirSync(dirname(env.FOLIO_VENDOR_DB), { recursive: true });
const store = new VendorStore(env.FOLIO_VENDOR_DB);
const { app } = createVendorApp({
  privateKey: readFileSync(env.FOLIO_VENDOR_PRIVATE_KEY_FILE, 'utf8'),
  adminToken: env.FOLIO_VENDOR_ADMIN_TOKEN,
  store,
  testControls: env.FOLIO_VENDOR_TEST_CONTROLS,
});
const server = await startVendorServer(app, { port: env.FOLIO_VENDOR_PORT, host: env.FOLIO_VENDOR_HOST });
process.stdout.write(`folio-vendor listening on ${server.url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => {
      store.close();
      process.exit(0);
    });
  });
}
