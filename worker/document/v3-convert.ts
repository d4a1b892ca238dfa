import type { Job } from 'bullmq';
import type { Payload } from '../../core/queue/index.js';
import type { ConversionStore } from '../../core/v3/conversion-store.js';
import { deleteFolder } from '../../core/v3/folders.js';
import { conversionFolder } from '../../core/v3/keys.js';
import type { FormatStatus } from '../../core/v3/pdf-store.js';
import type { WorkerContext } from '../context.js';
import { writeConversions } from './conversions.js';

/**
 * Makes the formats of one POST /v3/converter request from the MMD the appliance stored, moving
 * each format received → processing → completed | error. A conversion deleted meanwhile has its
 * fresh outputs removed again.
 */
export async function processV3Conversion(ctx: WorkerContext, store: ConversionStore, p: Payload<'v3-convert'>, task: Job): Promise<string> {
  const rec = await store.get(p.conversionId);
  if (!rec) return 'deleted';
  const folder = conversionFolder(rec.conversion_id);
  const wanted = Object.keys(rec.conversion_status);
  if (wanted.every((ext) => ['completed', 'error'].includes(rec.conversion_status[ext]!.status))) return 'already done';
  const processing = Object.fromEntries(wanted.map((ext) => [ext, { status: 'processing' } as FormatStatus]));
  if (!(await store.setStatus(rec.conversion_id, processing))) return 'deleted';
  let status: Record<string, FormatStatus>;
  try {
    const mmd = (await ctx.storage.readBuffer(`${folder}${rec.conversion_id}.mmd`)).toString('utf8');
    status = (await writeConversions(mmd, rec.formats, (ext, body, type) => ctx.storage.write(`${folder}${rec.conversion_id}.${ext}`, body, type))) as Record<
      string,
      FormatStatus
    >;
  } catch (err) {
    // writeConversions settles each format itself; this is the MMD or the store failing.
    if (task.attemptsMade + 1 < (task.opts.attempts ?? 1)) throw err;
    ctx.logger.error({ err: (err as Error).message, conversion_id: rec.conversion_id }, 'v3 conversion failed');
    status = Object.fromEntries(wanted.map((ext) => [ext, { status: 'error', error_id: 'sys_exception' } as FormatStatus]));
  }
  if (!(await store.setStatus(rec.conversion_id, status))) {
    await deleteFolder(ctx.storage, folder);
    return 'deleted';
  }
  return 'done';
}
