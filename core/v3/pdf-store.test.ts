import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import { ConversionStore } from './conversion-store.js';
import { PDF_RETENTION_SECONDS, newV3Id } from './keys.js';
import { type NewPdfRecord, PdfStore } from './pdf-store.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');

describe('PdfStore', () => {
  let server: TestRedis;
  let redis: Redis;
  let now = T0;
  let store: PdfStore;

  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
    store = new PdfStore(redis, 'ps', () => now);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  const record = (over: Partial<NewPdfRecord> = {}): NewPdfRecord => ({
    pdf_id: newV3Id(now),
    app_id: 'app_1',
    group_id: 'default',
    input_file: 'a.pdf',
    source: { kind: 'upload', key: 'v3/pdf/x/source.pdf' },
    request_args: { rm_spaces: true },
    conversion_formats: { docx: true, html: false },
    callback: null,
    streaming: false,
    ...over,
  });

  it('creates a received record with a 90-day TTL and reads it back typed', async () => {
    const rec = await store.create(record());
    const back = await store.get(rec.pdf_id);
    expect(back).toEqual(rec);
    expect(back).toMatchObject({ status: 'received', num_pages: 0, conversion_status: { docx: { status: 'received' } }, streaming: false });
    const ttl = await redis.ttl(store.keys.pdf(rec.pdf_id));
    expect(ttl).toBeGreaterThan(PDF_RETENTION_SECONDS - 10);
  });

  it('moves status only from the allowed states and stamps modified_at', async () => {
    const { pdf_id: id } = await store.create(record());
    now += 1000;
    expect(await store.transition(id, ['split'], 'completed')).toBe(false);
    expect(await store.transition(id, ['received'], 'loaded')).toBe(true);
    expect(await store.transition(id, ['loaded'], 'split', { num_pages: 3, num_pages_pdf: 5 })).toBe(true);
    await store.countPage(id, true);
    await store.countPage(id, false);
    const rec = await store.get(id);
    expect(rec).toMatchObject({
      status: 'split',
      num_pages: 3,
      num_pages_pdf: 5,
      num_pages_completed: 1,
      num_pages_failed: 1,
      modified_at: new Date(now).toISOString(),
    });
    expect(rec!.created_at).not.toBe(rec!.modified_at);
  });

  it('never brings back a deleted record', async () => {
    const { pdf_id: id } = await store.create(record({ streaming: true }));
    await store.pushPage(id, { page: 1 });
    expect(await store.readPages(id, 0)).toEqual([{ page: 1 }]);
    expect(await store.delete(id)).toMatchObject({ pdf_id: id });
    expect(await store.update(id, { num_pages: 2 })).toBe(false);
    expect(await store.transition(id, ['received'], 'loaded')).toBe(false);
    expect(await store.countPage(id, true)).toBe(false);
    expect(await redis.exists(store.keys.pdf(id), store.keys.pdfPages(id))).toBe(0);
    expect(await store.delete(id)).toBeNull();
  });

  it("lists an app's records newest first within dates, dropping expired entries", async () => {
    const s = new PdfStore(redis, 'list', () => now);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      now += 60_000;
      ids.push((await s.create(record({ app_id: 'lister' }))).pdf_id);
    }
    await redis.del(s.keys.pdf(ids[1]!)); // as if expired
    const all = await s.list('lister', { fromMs: -Infinity, toMs: Infinity, offset: 0, count: 10 });
    expect(all.map((r) => r.pdf_id)).toEqual([ids[3], ids[2], ids[0]]);
    expect(await redis.zcard(s.keys.appPdfs('lister'))).toBe(3);
    const created2 = Date.parse((await s.get(ids[2]!))!.created_at);
    expect((await s.list('lister', { fromMs: created2, toMs: created2, offset: 0, count: 10 })).map((r) => r.pdf_id)).toEqual([ids[2]]);
    expect(await s.list('nobody', { fromMs: -Infinity, toMs: Infinity, offset: 0, count: 10 })).toEqual([]);
  });

  it('keeps Files API documents out of the v3 listing, and reads older records as v3', async () => {
    const s = new PdfStore(redis, 'origin', () => now);
    const v3 = await s.create(record({ app_id: 'both' }));
    const file = await s.create(record({ app_id: 'both', origin: 'files' }));
    expect(v3.origin).toBe('v3');
    expect(await s.get(file.pdf_id)).toMatchObject({ origin: 'files', status: 'received' });
    expect((await s.list('both', { fromMs: -Infinity, toMs: Infinity, offset: 0, count: 10 })).map((r) => r.pdf_id)).toEqual([v3.pdf_id]);
    await redis.hdel(s.keys.pdf(v3.pdf_id), 'origin'); // as written before the field existed
    expect((await s.get(v3.pdf_id))!.origin).toBe('v3');
  });
});

describe('ConversionStore', () => {
  let server: TestRedis;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it('records requested formats as received, updates them, and deletes for good', async () => {
    const store = new ConversionStore(redis, 'cs', () => T0);
    const rec = await store.create({
      conversion_id: 'c1',
      app_id: 'a',
      group_id: 'g',
      formats: { docx: true, html: false },
      conversion_options: {},
      metadata: { k: 1 },
    });
    expect(rec.conversion_status).toEqual({ docx: { status: 'received' } });
    expect(await store.get('c1')).toEqual(rec);
    expect(await store.setStatus('c1', { docx: { status: 'completed' } })).toBe(true);
    expect((await store.get('c1'))?.conversion_status).toEqual({ docx: { status: 'completed' } });
    expect(await store.delete('c1')).toMatchObject({ conversion_id: 'c1' });
    expect(await store.setStatus('c1', { docx: { status: 'error' } })).toBe(false);
    expect(await store.get('c1')).toBeNull();
  });
});
