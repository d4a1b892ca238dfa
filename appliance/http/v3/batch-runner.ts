import { ApiError, toApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { type BatchItem, type BatchRecord, BatchStore } from '../../../core/v3/batch-store.js';
import { newV3Id } from '../../../core/v3/keys.js';
import type { AppContext } from '../../context.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { emitImageUsage, recordImage } from './image-accounting.js';
import type { LatexParams } from './latex-options.js';
import { buildLatexResult } from './latex-result.js';
import { deliverLegacyCallback } from './legacy-callback.js';
import { imageFromSrc, prepareImage } from './text-image.js';
import type { Recognize } from './text-inference.js';
import { regionOf, type TextOptions } from './text-options.js';
import { assemblyOf, buildTextResult } from './text-result.js';

/** Images of batches read at once: enough to keep the pool's queue fed, few enough to leave it for /v3/text. */
export const BATCH_CONCURRENCY = 2;

export interface BatchRunnerOptions {
  recognize: Recognize;
  resolve?: Resolver;
}

/**
 * Runs legacy batch images: each is fetched through the SSRF guard, read by the inference pool at
 * normal priority (so /v3/text and /v3/latex, at high priority, stay ahead), answered as /v3/latex
 * or /v3/text would, and stored into the batch record as it settles. When every image of a batch
 * has settled the batch is closed and its legacy callback, if any, receives {reply, result}.
 * start() resumes batches left open by a previous run (images already settled are not redone).
 */
export class BatchRunner {
  readonly store: BatchStore;
  private readonly history: OcrHistory;
  private readonly pending: Array<{ record: BatchRecord; item: BatchItem }> = [];
  private readonly active = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly opts: BatchRunnerOptions,
  ) {
    this.store = new BatchStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX);
    this.history = new OcrHistory(ctx.db);
  }

  async start(): Promise<void> {
    for (const batchId of await this.store.open()) {
      const found = await this.store.get(batchId);
      if (!found) {
        await this.store.close(batchId); // expired
        continue;
      }
      const left = found.record.items.filter((i) => !(i.key in found.results));
      if (!left.length) await this.finish(found.record);
      else this.submit(found.record, left);
    }
  }

  /** Queues the images of a stored batch. */
  submit(record: BatchRecord, items: BatchItem[] = record.items): void {
    this.pending.push(...items.map((item) => ({ record, item })));
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.length = 0;
    await Promise.allSettled([...this.active]);
  }

  private pump(): void {
    while (!this.stopped && this.active.size < BATCH_CONCURRENCY && this.pending.length) {
      const next = this.pending.shift()!;
      const run: Promise<void> = this.runItem(next.record, next.item)
        .catch((err: Error) => this.ctx.logger.error({ batch_id: next.record.batch_id, key: next.item.key, err: err.message }, 'batch image not stored'))
        .finally(() => {
          this.active.delete(run);
          this.pump();
        });
      this.active.add(run);
    }
  }

  private async runItem(record: BatchRecord, item: BatchItem): Promise<void> {
    const requestId = newV3Id(this.ctx.now());
    const started = this.ctx.now();
    const fetchOpts = { allowPrivate: this.ctx.config.FOLIO_ALLOW_PRIVATE_URLS, resolve: this.opts.resolve };
    let result: Record<string, unknown>;
    try {
      const region = regionOf(item.options as TextOptions);
      const image = await prepareImage(await imageFromSrc(item.url, fetchOpts), region);
      if (record.ocr_behavior === 'text') {
        const options = item.options as TextOptions;
        const page = await this.opts.recognize(requestId, image.png, { math: 'auto', assemble: assemblyOf(options), priority: 'normal' });
        result = await buildTextResult(requestId, page, options);
      } else {
        const params = item.options as LatexParams;
        const page = await this.opts.recognize(requestId, image.png, {
          math: params.ocr.includes('text') ? 'auto' : 'formula',
          nBest: params.n_best,
          priority: 'normal',
        });
        result = await buildLatexResult(requestId, page, image.png, params, region);
        if (item.legacyLatex && 'latex_normal' in result) {
          const { latex_normal: latex, ...rest } = result;
          result = { ...rest, latex };
        }
      }
      await emitImageUsage(this.ctx, 'batch', requestId, true);
    } catch (err) {
      if (!(err instanceof ApiError)) this.ctx.logger.error({ request_id: requestId, err: (err as Error).message }, 'batch image failed');
      result = { request_id: requestId, ...toApiError(err).toBody() };
      await emitImageUsage(this.ctx, 'batch', requestId, false);
    }
    recordImage(this.ctx, this.history, {
      requestId,
      auth: { appId: record.app_id, groupId: record.group_id },
      endpoint: '/v3/batch',
      usageType: 'image-async',
      // A data URL is the image itself, not an argument (as /v3/text's src).
      args: { ...(/^data:/i.test(item.url) ? {} : { url: item.url }), ...item.options },
      startedMs: started,
      result,
    });
    const settled = await this.store.setResult(record.batch_id, item.key, result);
    if (settled === record.items.length) await this.finish(record);
  }

  private async finish(record: BatchRecord): Promise<void> {
    await this.store.close(record.batch_id);
    if (!record.callback) return;
    const found = await this.store.get(record.batch_id);
    const result = { keys: record.items.map((i) => i.key), results: found?.results ?? {} };
    await deliverLegacyCallback(record.callback, result, {
      allowPrivate: this.ctx.config.FOLIO_ALLOW_PRIVATE_URLS,
      resolve: this.opts.resolve,
      logger: this.ctx.logger,
    });
  }
}
