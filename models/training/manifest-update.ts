import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/** What the update-*-manifest.ts scripts share: reading metrics, hashing files, writing entries. */

export const MANIFEST = 'models/manifest.json';

export type ManifestEntry = Record<string, unknown> & { id: string };

export const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(path, 'utf8')) as T;

export const sha256Of = async (path: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

export const pct = (v: number | undefined): string => (v === undefined ? 'n/a' : `${(100 * v).toFixed(1)} %`);

/** Puts the entries into models/manifest.json, each in place of the entry with its id, else at the end. */
export async function writeManifestEntries(entries: ManifestEntry[], summary = ''): Promise<void> {
  const manifest = await readJson<{ models: ManifestEntry[] } & Record<string, unknown>>(MANIFEST);
  const fresh = entries.filter((n) => !manifest.models.some((e) => e.id === n.id));
  manifest.models = [...manifest.models.map((e) => entries.find((n) => n.id === e.id) ?? e), ...fresh];
  await writeFile(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`updated ${MANIFEST}: ${entries.map((e) => `${e.id} ${String(e.sha256).slice(0, 12)}`).join(', ')}${summary ? `; ${summary}` : ''}`);
}
