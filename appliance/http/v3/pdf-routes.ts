import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import type { Resolver } from '../../../core/ssrf.js';
import { deleteFolder } from '../../../core/v3/folders.js';
import { MAX_DOCUMENT_BYTES, newV3Id, pdfFolder } from '../../../core/v3/keys.js';
import { PdfStore, type PdfRecord, type PdfSource } from '../../../core/v3/pdf-store.js';
import { sourceExtension } from '../../../core/v3/source.js';
import { requireLicense } from '../../../license/gate.js';
import { type AuthEnv, requireAppKey } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { OcrHistory } from '../../results/ocr-history.js';
import { readJson } from '../read-json.js';
import { DOCUMENT_BASE_FORMATS, resolveDownload, sendObject } from './downloads.js';
import { receiveMultipart } from './multipart.js';
import { dateBound, historyAppId, oneRecord, parseQuery, resultsQuery } from './result-query.js';
import { v3MonthlyQuota } from '../../files/quotas.js';
import { pdfStream } from './pdf-stream.js';
import { parseOptionsJson, parseSubmission, type PdfSubmission } from './submission.js';
import { checkOwner, isV3Id, pdfRecordView, pdfStatusView, splitName } from './views.js';

/** A JSON submission carries options and a URL, never the document. */
const MAX_JSON_BYTES = 5 * 1024 * 1024;

export interface V3PdfRouteOptions {
  /** @default 1 GiB (spec 8) */
  maxUploadBytes?: number;
  /** DNS for the url and callback_url checks (tests). */
  resolve?: Resolver;
}

/**
 * The document surface of spec 4.7 (app_id + app_key) and GET /v3/pdf-results (app_key only):
 * - POST   /v3/pdf                JSON {url, ...options} or multipart file + options_json → {pdf_id}
 * - GET    /v3/pdf/{id}           status (2.5); a failed document is status error with HTTP 200
 * - GET    /v3/pdf/{id}.{ext}     mmd, md, lines.json, lines.mmd.json and requested formats
 * - GET    /v3/pdf/{id}/stream    page results as server-sent events (see pdf-stream.ts)
 * - DELETE /v3/pdf/{id}           removes source and outputs at once, and its pages' records in
 *   GET /v3/ocr-results → {pdf_id, status: 'deleted'}; a document still being processed is
 *   deleted too (its worker stops and cleans up after itself)
 * - GET    /v3/pdf-results        the calling app's records (or app_id's, of the same group), newest
 *                                  first (2.4); pdf_id narrows to one; unknown filters are 400
 */
export function v3PdfRoutes(ctx: AppContext, opts: V3PdfRouteOptions = {}): Hono {
  const app = new Hono<AuthEnv>();
  const store = new PdfStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX, ctx.now);
  const history = new OcrHistory(ctx.db);
  const pdfResultsQuery = resultsQuery.extend({ pdf_id: z.string().optional() });
  const withKey = requireAppKey(ctx, { appIdRequired: true });
  const maxUpload = opts.maxUploadBytes ?? MAX_DOCUMENT_BYTES;
  const checks = { allowPrivate: ctx.config.FOLIO_ALLOW_PRIVATE_URLS, resolve: opts.resolve };

  const load = async (id: string, auth: AuthEnv['Variables']['auth']): Promise<PdfRecord> =>
    checkOwner(isV3Id(id) ? await store.get(id) : null, auth, `document ${id}`);

  app.post('/v3/pdf', withKey, requireLicense(ctx), v3MonthlyQuota(ctx), async (c) => {
    const pdfId = newV3Id(ctx.now());
    let submission: PdfSubmission;
    let source: PdfSource;
    let inputFile: string;
    if ((c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      let key: string | undefined;
      try {
        const form = await receiveMultipart(c.req.raw, {
          maxFileBytes: maxUpload,
          store: async (filename, body) => {
            key = `${pdfFolder(pdfId)}source.${sourceExtension(filename)}`;
            await ctx.storage.write(key, body);
          },
        });
        if (!form.file || !key) throw new ApiError('bad_request', 'The multipart body needs a part named file', { field: 'file' });
        submission = await parseSubmission(parseOptionsJson(form.fields.options_json), checks);
        if (submission.url !== undefined) throw new ApiError('bad_request', 'Give a file or a url, not both', { field: 'url' });
        source = { kind: 'upload', key };
        inputFile = form.file.filename || `${pdfId}.pdf`;
      } catch (err) {
        // Nothing is created by a refused submission (7.3): the bytes already stored go too.
        if (key) await deleteFolder(ctx.storage, pdfFolder(pdfId)).catch(() => undefined);
        throw err;
      }
    } else {
      submission = await parseSubmission(await readJson(c.req.raw, MAX_JSON_BYTES), checks);
      if (submission.url === undefined) throw new ApiError('bad_request', 'url is required, or upload the file as multipart/form-data', { field: 'url' });
      source = { kind: 'url', url: submission.url };
      inputFile = submission.url;
    }
    const auth = c.get('auth');
    const hasFormats = Object.keys(submission.conversionFormats).length > 0;
    await store.create({
      pdf_id: pdfId,
      app_id: auth.appId,
      group_id: auth.groupId,
      input_file: inputFile,
      source,
      request_args: { ...submission.options, ...(hasFormats ? { conversion_formats: submission.conversionFormats } : {}) },
      conversion_formats: submission.conversionFormats,
      callback: submission.callback,
      streaming: submission.options.streaming === true,
    });
    await ctx.queues.enqueue('v3-pdf', { pdfId }, { jobId: `v3pdf-${pdfId}` });
    return c.json({ pdf_id: pdfId });
  });

  app.get('/v3/pdf/:name/stream', withKey, async (c) => pdfStream(c, store, await load(c.req.param('name'), c.get('auth'))));

  app.get('/v3/pdf/:name', withKey, async (c) => {
    const { id, ext } = splitName(c.req.param('name'));
    const rec = await load(id, c.get('auth'));
    if (ext === null) return c.json(pdfStatusView(rec));
    const d = resolveDownload(ext, {
      base: DOCUMENT_BASE_FORMATS,
      baseReady: rec.status === 'completed',
      formats: rec.conversion_status,
      keyOf: (e) => `${pdfFolder(id)}${id}.${e}`,
    });
    if (d.kind === 'unsupported') throw new ApiError('unsupported_format', d.message);
    if (d.kind === 'not_ready')
      return c.json({ ...pdfStatusView(rec), error: 'format_not_ready', error_info: { id: 'format_not_ready', message: d.message } }, 404);
    return sendObject(c, ctx.storage, d.key, ext, id);
  });

  app.delete('/v3/pdf/:name', withKey, async (c) => {
    const rec = await load(c.req.param('name'), c.get('auth'));
    await store.delete(rec.pdf_id);
    await deleteFolder(ctx.storage, pdfFolder(rec.pdf_id));
    history.forgetPdf(rec.pdf_id);
    return c.json({ pdf_id: rec.pdf_id, status: 'deleted' });
  });

  app.get('/v3/pdf-results', requireAppKey(ctx, { appIdRequired: false }), async (c) => {
    const q = parseQuery(pdfResultsQuery, c.req.query());
    const { page, per_page: perPage } = q;
    const from = dateBound(q.from_date, 'from_date', false);
    const to = dateBound(q.to_date, 'to_date', true);
    const appId = historyAppId(ctx.db, c.get('auth'), q.app_id);
    const offset = (page - 1) * perPage;
    if (appId === null) return c.json({ pdfs: [] });
    const one = async (id: string) => {
      const rec = isV3Id(id) ? await store.get(id) : null;
      return oneRecord(rec?.origin === 'v3' ? rec : null, appId, from, to, offset);
    };
    const records = q.pdf_id !== undefined ? await one(q.pdf_id) : await store.list(appId, { fromMs: from, toMs: to, offset, count: perPage });
    return c.json({ pdfs: records.map(pdfRecordView) });
  });

  return app as unknown as Hono;
}
