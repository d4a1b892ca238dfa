import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The console's own folder (sources, config) and the stamp the build leaves in dist. */
export const WEB_DIR = fileURLToPath(new URL('.', import.meta.url));
export const STAMP_FILE = '.source-hash';

/**
 * A hash of every source file of the console (dist excluded): written into dist by the build, so a
 * test can tell whether dist matches the sources without trusting file times (copies reset them).
 */
export function consoleSourceHash(dir = WEB_DIR): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name === 'dist' || e.name === 'node_modules') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else hash.update(relative(dir, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex');
}
