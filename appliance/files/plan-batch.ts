import { ApiError } from '../../core/errors.js';
import { rootUriOf } from '../../core/storage/index.js';
import type { AppContext } from '../context.js';
import { type NewFile, newFileIds } from './ledger.js';
import type { OpenBucketUri } from './sources.js';
import { type CheckOptions, checkPublicUrl, CUSTOM_ID, type FileFields, type PlannedFile, planFile, type SubmissionSettings } from './submission.js';

/** Distinct hosts or buckets checked at once. */
const CHECK_CONCURRENCY = 8;
/** Items validated between two turns of the event loop (200,000 at once hold it a third of a second or more). */
const PLAN_CHUNK_ITEMS = 1_000;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Plans every item of POST /files/v1/jobs. An item that fails validation becomes an errored file
 * (spec 4.10) instead of failing the request. Address checks (SSRF) and data-source lookups run
 * once per distinct host or bucket, not once per item, so 200,000 items on one bucket cost one
 * lookup. A host that does not resolve yet, or a bucket whose grant cannot be checked now, is
 * left to processing time, where the file errors if it still fails.
 */
export async function planBatch(
  ctx: AppContext,
  groupId: string,
  items: unknown[],
  settings: SubmissionSettings,
  checks: CheckOptions,
  open: OpenBucketUri,
): Promise<NewFile[]> {
  const fileId = newFileIds(items.length, ctx.now());
  const planned: (PlannedFile | NewFile)[] = [];
  for (const [i, item] of items.entries()) {
    if (i && i % PLAN_CHUNK_ITEMS === 0) await yieldToLoop();
    const id = fileId(i);
    try {
      if (!item || typeof item !== 'object' || Array.isArray(item)) throw new ApiError('bad_request', 'A FileSubmission must be a JSON object');
      planned.push(planFile(id, item as FileFields, settings, checks));
    } catch (err) {
      planned.push(errored(id, item, err));
    }
  }

  const hostOf = (p: PlannedFile) => (p.source?.kind === 'public' ? p.source.origin : null);
  const bucketOf = (p: PlannedFile) => (p.source?.kind === 'bucket' ? rootUriOf(p.source.location) : null);
  const destinationOf = (p: PlannedFile) => p.destinationRoot;
  const hostRefusals = await checkOnce(planned, hostOf, (origin) => checkPublicUrl(`${origin}/`, checks));
  const sourceRefusals = await checkOnce(planned, bucketOf, (root) => dataSourceExists(ctx, open, groupId, root));
  const destinationRefusals = await checkOnce(planned, destinationOf, (uri) => dataSourceExists(ctx, open, groupId, uri));

  return planned.map((p) => {
    if (!('source' in p)) return p;
    const refusal = hostRefusals.get(hostOf(p) ?? '') ?? sourceRefusals.get(bucketOf(p) ?? '') ?? destinationRefusals.get(destinationOf(p) ?? '');
    return refusal ? { ...p.file, error: { id: refusal.id, message: refusal.message } } : p.file;
  });
}

function errored(fileId: string, item: unknown, err: unknown): NewFile {
  if (!(err instanceof ApiError)) throw err;
  const f = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
  const text = (v: unknown, max: number) => (typeof v === 'string' && v.length <= max ? v : null);
  return {
    file_id: fileId,
    filename: text(f.filename, 1024) ?? `${fileId}.pdf`,
    output_basename: fileId,
    custom_id: typeof f.custom_id === 'string' && CUSTOM_ID.test(f.custom_id) ? f.custom_id : null,
    source_uri: text(f.source_uri, 4096),
    error: { id: err.id, message: err.message },
  };
}

/** Runs `check` once per distinct key of the planned items; returns the keys it refused. */
async function checkOnce(
  planned: (PlannedFile | NewFile)[],
  keyOf: (p: PlannedFile) => string | null,
  check: (key: string) => Promise<void>,
): Promise<Map<string, ApiError>> {
  const keys = new Set<string>();
  for (const p of planned) {
    if (!('source' in p)) continue;
    const k = keyOf(p);
    if (k) keys.add(k);
  }
  const refused = new Map<string, ApiError>();
  const queue = [...keys];
  const next = async (): Promise<void> => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) {
      try {
        await check(k);
      } catch (err) {
        if (err instanceof ApiError) refused.set(k, err);
        else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, next));
  return refused;
}

/** A bucket with no registered data source refuses its items now (spec 4.10); other failures wait for processing. */
async function dataSourceExists(ctx: AppContext, open: OpenBucketUri, groupId: string, uri: string): Promise<void> {
  try {
    await open(ctx, groupId, uri);
  } catch (err) {
    if (err instanceof ApiError && err.id === 'data_source_not_found') throw err;
  }
}
