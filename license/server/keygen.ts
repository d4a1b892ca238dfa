import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// `tsx license/server/keygen.ts <dir>`: writes a new Ed25519 pair as <dir>/vendor-private-key.pem
// (mode 600, keep it on the vendor side only) and <dir>/vendor-public-key.pem (ships in license/).
const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: tsx license/server/keygen.ts <output folder>\n');
  process.exit(2);
}
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
writeFileSync(join(dir, 'vendor-private-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
writeFileSync(join(dir, 'vendor-public-key.pem'), publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
process.stdout.write(`wrote ${join(dir, 'vendor-private-key.pem')} and ${join(dir, 'vendor-public-key.pem')}\n`);
