import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import { createLogger } from '../../core/logging.js';
import { FileStorage } from '../../core/storage/file.js';
import { ConversionStore } from '../../core/v3/conversion-store.js';
import { conversionFolder, newV3Id, pdfFolder } from '../../core/v3/keys.js';
import { type NewPdfRecord, PdfStore } from '../../core/v3/pdf-store.js';
import { RetentionSweeper } from './retention.js';

const DAY = 86_400_000;

describe('RetentionSweeper', () => {
  let server: TestRedis;
  let redis: Redis;
  let root: string;
  let storage: FileStorage;
  let prefix: string;
  // Objects get real mtimes, so the test clock starts at the real now and moves forward.
  let now: number;
  const clock = () => now;

  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  // Each test has its own store and key prefix: the sweeper treats every folder it finds as its own.
  beforeEach(async () => {
    now = Date.now();
    prefix = `rt${Math.random().toString(16).slice(2, 8)}`;
    root = await mkdtemp(join(tmpdir(), 'folio-retention-'));
    storage = new FileStorage(`${pathToFileURL(root).href}/`);
    await storage.ensureRoot();
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const sweeper = () => new RetentionSweeper({ storage, redis, prefix, now: clock, logger: createLogger({ name: 'test', level: 'silent' }) });
  const keys = async (folder: string) => {
    const out: string[] = [];
    for await (const o of storage.list({ prefix: folder })) out.push(o.key.slice(folder.length));
    return out.sort();
  };

  /** A finished /v3/pdf document with an uploaded source and its outputs in the store. */
  async function storedPdf(over: Partial<NewPdfRecord> = {}, status: 'completed' | 'split' = 'completed'): Promise<string> {
    const pdfs = new PdfStore(redis, prefix, clock);
    const id = newV3Id(now);
    const folder = pdfFolder(id);
    await storage.write(`${folder}source.pdf`, '%PDF-1.4');
    await pdfs.create({
      pdf_id: id,
      app_id: 'app',
      group_id: 'default',
      input_file: 'a.pdf',
      source: { kind: 'upload', key: `${folder}source.pdf` },
      request_args: {},
      conversion_formats: {},
      callback: null,
      streaming: false,
      ...over,
    });
    await pdfs.transition(id, ['received'], status === 'completed' ? 'completed' : 'split');
    await storage.write(`${folder}${id}.mmd`, '# Paper');
    await storage.write(`${folder}${id}.lines.json`, '{}');
    return id;
  }

  it('keeps a young document, drops its source after 30 days and everything after 90', async () => {
    const id = await storedPdf();
    const pdfs = new PdfStore(redis, prefix, clock);
    expect(await sweeper().sweep()).toEqual({ pdfsExpired: 0, sourcesRemoved: 0, conversionsExpired: 0, orphanFoldersRemoved: 0, ocrResultsExpired: 0 });
    now += 30 * DAY;
    expect((await sweeper().sweep()).sourcesRemoved).toBe(1);
    expect(await keys(pdfFolder(id))).toEqual([`${id}.lines.json`, `${id}.mmd`]);
    expect(await pdfs.get(id)).not.toBeNull();
    now += 60 * DAY;
    expect((await sweeper().sweep()).pdfsExpired).toBe(1);
    expect(await keys(pdfFolder(id))).toEqual([]);
    expect(await pdfs.get(id)).toBeNull();
    expect(await redis.zcard(pdfs.keys.appPdfs('app'))).toBe(0);
  });

  it('drops the source of a finished improve_*=false document at once, not while it is processed', async () => {
    const done = await storedPdf({ request_args: { metadata: { improve_mathpix: false } } });
    const working = await storedPdf({ request_args: { metadata: { improve_mathpix: false } } }, 'split');
    const kept = await storedPdf({ request_args: { metadata: { improve_mathpix: true } } });
    expect((await sweeper().sweep()).sourcesRemoved).toBe(1);
    expect(await keys(pdfFolder(done))).toEqual([`${done}.lines.json`, `${done}.mmd`]);
    expect(await keys(pdfFolder(working))).toContain('source.pdf');
    expect(await keys(pdfFolder(kept))).toContain('source.pdf');
  });

  it('removes a conversion and its outputs after 90 days', async () => {
    const conversions = new ConversionStore(redis, prefix, clock);
    const id = newV3Id(now);
    await conversions.create({ conversion_id: id, app_id: 'app', group_id: 'default', formats: { docx: true }, conversion_options: {}, metadata: {} });
    await storage.write(`${conversionFolder(id)}${id}.mmd`, 'x');
    await storage.write(`${conversionFolder(id)}${id}.docx`, 'PK');
    now += 89 * DAY;
    expect((await sweeper().sweep()).conversionsExpired).toBe(0);
    now += DAY;
    expect((await sweeper().sweep()).conversionsExpired).toBe(1);
    expect(await conversions.get(id)).toBeNull();
    expect(await keys(conversionFolder(id))).toEqual([]);
  });

  it('removes a folder whose record is gone, once it is a day old', async () => {
    const id = newV3Id(now); // an upload stored a moment before its record is created
    await storage.write(`${pdfFolder(id)}source.pdf`, '%PDF-1.4');
    expect((await sweeper().sweep()).orphanFoldersRemoved).toBe(0);
    now += DAY + 60_000;
    expect((await sweeper().sweep()).orphanFoldersRemoved).toBe(1);
    expect(await keys(pdfFolder(id))).toEqual([]);
  });

  it('sweeps when started and waits for the sweep when stopped', async () => {
    const id = await storedPdf();
    now += 91 * DAY;
    const s = sweeper();
    s.start();
    await s.stop();
    expect(await keys(pdfFolder(id))).toEqual([]);
  });
});
