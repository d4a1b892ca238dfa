import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extensionOf } from '../../core/pco/layout.js';
import type { Payload } from '../../core/queue/index.js';
import { openLocation } from '../../core/storage/index.js';
import type { WorkerContext } from '../context.js';
import { countPages } from './pipeline/index.js';

/**
 * Counts the pages of a dry run's sample documents, one at a time in a scratch folder. A document
 * that cannot be fetched or opened counts as null: it says nothing about page counts, and the
 * enumeration of the real job reports it.
 */
export async function processCountPages(ctx: WorkerContext, p: Payload<'count-pages'>): Promise<{ counts: (number | null)[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-count-'));
  try {
    const counts: (number | null)[] = [];
    for (const [i, uri] of p.sourceUris.entries()) {
      const file = join(dir, `${i}.${extensionOf(uri) || 'bin'}`);
      try {
        const { storage, location } = openLocation(uri, ctx.storageSettings);
        await pipeline(await storage.read(location.key), createWriteStream(file));
        counts.push(await countPages(file));
      } catch {
        counts.push(null);
      } finally {
        await rm(file, { force: true });
      }
    }
    return { counts };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
