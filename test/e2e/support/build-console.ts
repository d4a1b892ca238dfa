import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { consoleSourceHash, STAMP_FILE, WEB_DIR } from '../../../console/web/source-hash.js';

/** Vitest global setup: builds the console unless dist was built from exactly these sources. */
export default async function setup(): Promise<void> {
  const stamp = join(WEB_DIR, 'dist', STAMP_FILE);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === consoleSourceHash()) return;
  await build({ configFile: join(WEB_DIR, 'vite.config.ts'), logLevel: 'warn' });
}
