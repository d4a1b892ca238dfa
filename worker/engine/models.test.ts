import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile, usableProviders } from './models.js';

describe('loadModelFile', () => {
  let dir: string;
  const bytes = Buffer.from('not really a model');
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  async function manifest(entry: Record<string, string>): Promise<string> {
    const path = join(dir, `manifest-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(path, JSON.stringify({ models: [{ id: 'm', name: 'test model', version: '1', ...entry }] }));
    return path;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-models-'));
    await writeFile(join(dir, 'model.bin'), bytes);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('returns the bytes of a file whose sha256 matches, relative to node_modules or absolute', async () => {
    const relative = await manifest({ path: 'model.bin', package: 'some-package', sha256 });
    expect((await loadModelFile('m', { manifestPath: relative, nodeModulesDir: dir })).bytes.equals(bytes)).toBe(true);
    const absolute = await manifest({ path: join(dir, 'model.bin'), sha256 });
    expect((await loadModelFile('m', { manifestPath: absolute })).file).toBe(join(dir, 'model.bin'));
  });

  it('resolves the path of an entry without a package against the manifest folder, not node_modules', async () => {
    const repoModels = join(dir, 'repo-models');
    await mkdir(repoModels);
    await writeFile(join(repoModels, 'trained.bin'), bytes);
    const manifestPath = join(repoModels, 'manifest.json');
    await writeFile(manifestPath, JSON.stringify({ models: [{ id: 'm', name: 'trained here', version: '1', path: 'trained.bin', sha256 }] }));
    const loaded = await loadModelFile('m', { manifestPath, nodeModulesDir: join(dir, 'elsewhere') });
    expect(loaded.file).toBe(join(repoModels, 'trained.bin'));
    expect(loaded.bytes.equals(bytes)).toBe(true);
    await writeFile(join(repoModels, 'trained.bin'), Buffer.from('tampered'));
    await expect(loadModelFile('m', { manifestPath })).rejects.toMatchObject({ kind: 'model_mismatch' });
  });

  it('refuses a sha256 mismatch, a missing file, an unknown id and a malformed entry', async () => {
    const wrong = await manifest({ path: 'model.bin', package: 'some-package', sha256: sha256.replace(/^./, (c) => (c === '0' ? '1' : '0')) });
    await expect(loadModelFile('m', { manifestPath: wrong, nodeModulesDir: dir })).rejects.toMatchObject({ kind: 'model_mismatch', retryable: false });
    const missing = await manifest({ path: 'gone.bin', package: 'some-package', sha256 });
    await expect(loadModelFile('m', { manifestPath: missing, nodeModulesDir: dir })).rejects.toMatchObject({ kind: 'model_missing' });
    await expect(loadModelFile('other', { manifestPath: missing, nodeModulesDir: dir })).rejects.toMatchObject({ kind: 'manifest_invalid' });
    const malformed = await manifest({ path: 'model.bin', sha256: 'abc' });
    await expect(loadModelFile('m', { manifestPath: malformed, nodeModulesDir: dir })).rejects.toThrow(/sha256 must be 64/);
  });
});

describe('usableProviders', () => {
  it('drops providers this build does not know and always ends with the CPU', () => {
    expect(usableProviders(['no-such-provider'])).toEqual(['cpu']);
    expect(usableProviders(['cpu']).at(-1)).toBe('cpu');
  });
});
