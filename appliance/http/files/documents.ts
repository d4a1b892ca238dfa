import { Hono } from 'hono';
import { ApiError } from '../../../core/errors.js';
import { deleteFolder } from '../../../core/v3/folders.js';
import { newV3Id, pdfFolder } from '../../../core/v3/keys.js';
import { PdfStore } from '../../../core/v3/pdf-store.js';
import { sourceExtension } from '../../../core/v3/source.js';
import { requireLicense } from '../../../license/gate.js';
import type { AuthEnv } from '../../auth/middleware.js';
import type { AppContext } from '../../context.js';
import { acceptSingle } from '../../files/accept.js';
import { wakeDispatcher } from '../../files/dispatcher.js';
import { FilesLedger } from '../../files/ledger.js';
import { filesSettings } from '../../files/settings.js';
import { MAX_FILES_SOURCE_BYTES } from '../../files/sources.js';
import { type CheckOptions, checkPublicUrl, type FileFields, idempotencyKey, jobIdField, parseSettings, planFile } from '../../files/submission.js';
import { readJson } from '../read-json.js';
import { DOCUMENT_BASE_FORMATS, resolveDownload, sendObject } from '../v3/downloads.js';
import { receiveMultipart } from '../v3/multipart.js';
import { parseOptionsJson } from '../v3/submission.js';
import { splitName } from '../v3/views.js';
import { checkGroup, fileView, rowFormats } from './views.js';
import type { FilesGuard } from './guard.js';

/** A /files/v1/uri body holds options and one URI. */
const MAX_JSON_BYTES = 1024 * 1024;
/** `<file_id>` or `<file_id>.<ext>`: anything else under /files/v1/ belongs to another route. */
export const FILE_NAME_PATTERN = ':name{[0-9]{4}_[0-9]{2}_[0-9]{2}_[0-9a-f]{20}(?:\\.[A-Za-z0-9.]+)?}';

/**
 * The multipart fields a client may send beside options_json (job_id also under its older name
 * scs_job_id). A field that options_json also sets must not disagree with it.
 */
function withFormFields(options: Record<string, unknown>, fields: Record<string, string>): Record<string, unknown> {
  if (fields.job_id !== undefined && fields.scs_job_id !== undefined && fields.job_id !== fields.scs_job_id) {
    throw new ApiError('bad_request', 'job_id and scs_job_id differ', { field: 'scs_job_id' });
  }
  const given: Record<string, string | undefined> = { job_id: fields.job_id ?? fields.scs_job_id, custom_id: fields.custom_id, filename: fields.filename };
  const out = { ...options };
  for (const [field, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (out[field] !== undefined && out[field] !== value)
      throw new ApiError('bad_request', `${field} differs between the form field and options_json`, { field });
    out[field] = value;
  }
  return out;
}

/**
 * The document routes of spec 4.9 (header app_key only):
 * - POST   /files/v1/uri              JSON {source_uri, ...} → {file_id}
 * - POST   /files/v1                  multipart: part `file` (streamed to storage), optional part
 *                                     `options_json` (the /uri body without source_uri) and optional
 *                                     fields job_id (or scs_job_id), custom_id, filename → {file_id}
 * - GET    /files/v1/{file_id}        status (2.8, 3.1)
 * - GET    /files/v1/{file_id}.{ext}  download, Content-Disposition <basename>.<ext>
 * - DELETE /files/v1/{file_id}        {file_id, status: 'deleted'}; 409 while pending or split
 */
export function filesDocumentRoutes(ctx: AppContext, guard: FilesGuard, checks: CheckOptions): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const files = new FilesLedger(ctx.db);
  const pdfs = new PdfStore(ctx.redis, ctx.config.FOLIO_QUEUE_PREFIX, ctx.now);
  const limits = filesSettings(ctx.config);
  const [ipLimit, withKey, keyLimit] = guard;
  const license = requireLicense(ctx);

  /** Validates one file's submission and records it; `upload` is a source already in our store. */
  const submit = async (
    auth: AuthEnv['Variables']['auth'],
    fileId: string,
    body: Record<string, unknown>,
    header: string | undefined,
    upload?: { key: string; filename: string },
  ) => {
    const { source_uri, filename, custom_id, destination_uri, destination_basename, s3_region, job_id, ...rest } = body;
    if (upload && source_uri !== undefined) throw new ApiError('bad_request', 'Give a file or a source_uri, not both', { field: 'source_uri' });
    const jobId = jobIdField(job_id);
    if (custom_id !== undefined && !jobId) throw new ApiError('bad_request', 'custom_id requires job_id', { field: 'custom_id' });
    const key = idempotencyKey(header);
    const settings = await parseSettings(rest, false, checks);
    if (settings.imageOutputMode === 'local' && (destination_uri === undefined || destination_uri === null)) {
      throw new ApiError('bad_request', 'image_output_mode local needs destination_uri', { field: 'image_output_mode' });
    }
    const fields: FileFields = { source_uri, filename, custom_id, destination_uri, destination_basename, s3_region };
    const planned = planFile(fileId, fields, settings, checks, upload);
    if (planned.source?.kind === 'public') await checkPublicUrl(planned.source.url, checks);
    const res = await acceptSingle({ db: ctx.db, limits, nowMs: ctx.now() }, auth, settings, planned.file, { jobId, idempotencyKey: key });
    if (res.created) wakeDispatcher();
    return res;
  };

  app.post('/files/v1/uri', ipLimit, withKey, keyLimit, license, async (c) => {
    const body = await readJson(c.req.raw, MAX_JSON_BYTES);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('bad_request', 'Body must be a JSON object');
    if ((body as Record<string, unknown>).source_uri === undefined) throw new ApiError('bad_request', 'source_uri is required', { field: 'source_uri' });
    const { fileId } = await submit(c.get('auth'), newV3Id(ctx.now()), body as Record<string, unknown>, c.req.header('idempotency-key'));
    return c.json({ file_id: fileId });
  });

  app.post('/files/v1', ipLimit, withKey, keyLimit, license, async (c) => {
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw new ApiError('bad_request', 'Upload the document as multipart/form-data with a part named file; use /files/v1/uri for a URI');
    }
    const fileId = newV3Id(ctx.now());
    let key: string | undefined;
    try {
      const form = await receiveMultipart(c.req.raw, {
        maxFileBytes: MAX_FILES_SOURCE_BYTES,
        store: async (filename, body) => {
          key = `${pdfFolder(fileId)}source.${sourceExtension(filename)}`;
          await ctx.storage.write(key, body);
        },
      });
      if (!form.file || !key) throw new ApiError('bad_request', 'The multipart body needs a part named file', { field: 'file' });
      const body = withFormFields(parseOptionsJson(form.fields.options_json), form.fields);
      const res = await submit(c.get('auth'), fileId, body, c.req.header('idempotency-key'), { key, filename: form.file.filename });
      // An idempotent replay answers with the original file: this upload is not needed.
      if (!res.created) await deleteFolder(ctx.storage, pdfFolder(fileId));
      return c.json({ file_id: res.fileId });
    } catch (err) {
      // Nothing is created by a refused submission (7.3): the bytes already stored go too.
      if (key) await deleteFolder(ctx.storage, pdfFolder(fileId)).catch(() => undefined);
      throw err;
    }
  });

  app.get(`/files/v1/${FILE_NAME_PATTERN}`, ipLimit, withKey, keyLimit, async (c) => {
    const { id, ext } = splitName(c.req.param('name'));
    const row = checkGroup(files.get(id), c.get('auth'), `file ${id}`);
    if (row.status === 'deleted') throw new ApiError('not_found', `File ${id} was deleted`);
    const rec = row.status === 'pending' || row.status === 'split' ? await pdfs.get(id) : null;
    const view = fileView(row, rec);
    if (ext === null) return c.json(view);
    const d = resolveDownload(ext, {
      base: DOCUMENT_BASE_FORMATS,
      baseReady: row.status === 'completed',
      formats: rec ? rec.conversion_status : rowFormats(row),
      keyOf: (e) => `${pdfFolder(id)}${id}.${e}`,
    });
    if (d.kind === 'unsupported') throw new ApiError('unsupported_format', d.message);
    if (d.kind === 'not_ready')
      return c.json({ ...view, error: 'format_not_ready', error_info: { id: 'format_not_ready', message: d.message, status: view.status } }, 404);
    return sendObject(c, ctx.storage, d.key, ext, row.output_basename);
  });

  app.delete(`/files/v1/${FILE_NAME_PATTERN}`, ipLimit, withKey, keyLimit, async (c) => {
    const { id, ext } = splitName(c.req.param('name'));
    if (ext !== null) throw new ApiError('not_found', `No route for DELETE ${c.req.path}`);
    const row = checkGroup(files.get(id), c.get('auth'), `file ${id}`);
    if (row.status === 'pending' || row.status === 'split')
      throw new ApiError('conflict', `File ${id} is still being processed (${row.status}); delete it once it is completed or error`);
    if (row.status !== 'deleted') {
      // Service storage only (spec 4.9): a destination bucket keeps its copies; counters stay as they are.
      await pdfs.delete(id);
      await deleteFolder(ctx.storage, pdfFolder(id));
      files.markDeleted(id, ctx.now());
    }
    return c.json({ file_id: id, status: 'deleted' });
  });

  return app;
}
