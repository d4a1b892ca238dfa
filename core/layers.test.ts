import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layers' import rules (ARCHITECTURE.md, "Layout"), read from the source: every static and
 * dynamic import of every TypeScript file under a layer, resolved to the repository folder it
 * lands in. `make lint` runs this file.
 * - appliance/ never imports worker/ (recognition and page assembly run in the workers; what both
 *   need lives in core/ or page/);
 * - page/ is pure: it imports neither worker/ nor appliance/;
 * - core/ knows no surface: it imports none of worker/, appliance/, page/;
 * - runtime files import nothing from test/: fixtures and test helpers live in test/support/,
 *   and only tests (`*.test.ts`) reach them.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** This file: its probe text below is no import. */
const SELF = 'core/layers.test.ts';

const FORBIDDEN: Record<string, string[]> = {
  appliance: ['worker'],
  page: ['worker', 'appliance'],
  core: ['worker', 'appliance', 'page'],
};

/** The folders whose files ship and run; their tests sit beside them. */
const RUNTIME = ['appliance', 'worker', 'core', 'page', 'license'];

/**
 * Files that still break a rule, each with who removes it. The list only shrinks: an entry that
 * no longer breaks the rule fails the test until it is taken off.
 */
const PENDING: Record<string, string> = {};

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : sources(path);
    return /\.(ts|mts|tsx)$/.test(e.name) ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The top-level folders the relative imports of `file` land in. */
export function importedLayers(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => relative(ROOT, resolve(ROOT, dirname(file), m[1]!)).split('/')[0]!);
}

describe('layer rules', () => {
  for (const [layer, forbidden] of Object.entries(FORBIDDEN)) {
    it(`${layer}/ imports none of ${forbidden.map((f) => `${f}/`).join(', ')}`, () => {
      const broken = sources(layer).filter((f) => f !== SELF && importedLayers(f).some((l) => forbidden.includes(l)));
      expect(broken.filter((f) => !(f in PENDING))).toEqual([]);
      const fixed = Object.keys(PENDING).filter((f) => f.startsWith(`${layer}/`) && !broken.includes(f));
      expect(fixed, 'no longer breaks the rule: take it off PENDING').toEqual([]);
    });
  }

  it('runtime files, tests apart, import nothing from test/', () => {
    const broken = RUNTIME.flatMap(sources).filter((f) => !f.endsWith('.test.ts') && importedLayers(f).includes('test'));
    expect(broken).toEqual([]);
  });

  it('reads static, type-only and dynamic imports', () => {
    const probe = "import a from '../worker/x.js';\nimport type { B } from '../../page/y.js';\nconst c = await import('./z.js');\nimport './side.js';";
    expect([...probe.matchAll(IMPORT)].map((m) => m[1])).toEqual(['../worker/x.js', '../../page/y.js', './z.js', './side.js']);
  });
});
