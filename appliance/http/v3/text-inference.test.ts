import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineWorker } from '../../../core/queue/index.js';
import { v3TestApp, type V3TestApp } from '../../../test/support/v3-test-app.js';
import { InferencePool } from './text-inference.js';

describe('InferencePool (real queue, fake inference worker)', () => {
  let t: V3TestApp;
  beforeAll(async () => {
    t = await v3TestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores the image under scratch/text/<id>, runs a high-priority page task and deletes the image', async () => {
    const seen: { imageKey: string; priority: number | undefined; bytes: number }[] = [];
    const worker = defineWorker(
      'page',
      async ({ imageKey }, job) => {
        const buf = await t.workerCtx.storage.readBuffer(imageKey);
        seen.push({ imageKey, priority: job.opts.priority, bytes: buf.length });
        return {
          lines: [{ text: 'hi', confidence: 0.9, box: { x: 0, y: 0, width: 5, height: 5 } }],
          width: 8,
          height: 8,
          rotation: 0,
          rotationConfidence: 0.9,
        };
      },
      { connection: t.workerCtx.queueConnection.duplicate(), prefix: t.ctx.config.FOLIO_QUEUE_PREFIX },
    );
    const pool = new InferencePool(t.ctx, 20_000);
    try {
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      const r = await pool.recognize('2025_06_01_00000000000000000001', png);
      expect(r.lines[0]!.text).toBe('hi');
      expect(seen).toEqual([{ imageKey: 'scratch/text/2025_06_01_00000000000000000001', priority: 1, bytes: png.length }]);
      expect(await t.ctx.storage.exists('scratch/text/2025_06_01_00000000000000000001')).toBe(false);
    } finally {
      await worker.close();
      await pool.close();
    }
  });

  it('answers sys_exception when no worker answers in time, and cleans up', async () => {
    const pool = new InferencePool(t.ctx, 300);
    try {
      await expect(pool.recognize('2025_06_01_00000000000000000002', Buffer.from('x'))).rejects.toMatchObject({ id: 'sys_exception' });
      expect(await t.ctx.storage.exists('scratch/text/2025_06_01_00000000000000000002')).toBe(false);
      expect(await t.waiting('pages')).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
