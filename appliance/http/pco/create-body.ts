import { z } from 'zod';
import { ApiError, type ErrorId } from '../../../core/errors.js';
import { conversionFormatsSchema, pdfOptionsSchema } from '../../../core/options/pdf-options.js';
import { LAYOUTS, type JobSpec, policySchema } from '../../../core/pco/job-spec.js';
import { parseLocation } from '../../../core/storage/uri.js';

const MAX_INPUT_FILES = 10_000;
const EXTRA_OUTPUTS = ['.lines.json', '.lines.mmd.json'] as const;
const glob = z.array(z.string().min(1).max(1024)).max(1000);

const bodySchema = z
  .object({
    name: z.string().max(256).optional(),
    input: z
      .object({
        folder: z.string().optional(),
        files: z.array(z.string()).optional(),
        recursive: z.boolean().default(true),
        include: glob.default([]),
        exclude: glob.default([]),
      })
      .strict(),
    output: z
      .object({
        folder: z.string().optional(),
        layout: z.string().optional(),
        on_existing: z.enum(['skip', 'replace']).default('skip'),
      })
      .strict()
      .default({}),
    options: z
      .object({
        conversion_formats: conversionFormatsSchema.default({}),
        extra_outputs: z.array(z.enum(EXTRA_OUTPUTS)).default([]),
        ocr: pdfOptionsSchema.default({}),
      })
      .strict()
      .default({}),
    policy: policySchema.default({}),
    callback_url: z.unknown().optional(),
    callback_events: z.unknown().optional(),
    callback_headers: z.unknown().optional(),
    client_reference: z.string().max(256).optional(),
  })
  .strict();

/** Which submission-time id a schema problem at `path` is reported with. */
function idForPath(path: (string | number)[]): ErrorId {
  const [top, second] = path;
  if (top === 'input') return second === 'files' ? 'input_folder_or_files' : 'bad_request';
  if (top === 'output') return second === 'layout' ? 'invalid_layout' : 'bad_request';
  if (top === 'options') return 'invalid_options';
  if (top === 'policy') return 'invalid_policy';
  if (typeof top === 'string' && top.startsWith('callback_')) return 'invalid_callback';
  return 'bad_request';
}

/** The callback fields of the body, for the shared callback validator. */
export interface RawCallback {
  callback_url?: unknown;
  callback_events?: unknown;
  callback_headers?: unknown;
}

/** What the echo shows in place of each callback header value (views.ts publicSpec). */
const REDACTED = '[redacted]';

/**
 * A job's `spec` as GET /pco/v1/jobs/{id} shows it, read back as a create body: null input.folder,
 * input.files, name and client_reference are absent, and `callback: {url, events, headers}` is the
 * three callback fields (null: none). Header values the echo redacted cannot be sent on: 400.
 */
function fromSpecEcho(b: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { ...b };
  for (const k of ['name', 'client_reference'] as const) if (out[k] === null) delete out[k];
  if (out.input && typeof out.input === 'object' && !Array.isArray(out.input)) {
    out.input = { ...out.input };
    for (const k of ['folder', 'files'] as const) if (out.input[k] === null) delete out.input[k];
  }
  if (!('callback' in out)) return out;
  const cb = out.callback;
  delete out.callback;
  if (cb === null) return out;
  if (typeof cb !== 'object' || Array.isArray(cb)) throw new ApiError('bad_request', 'callback must be {url, events, headers} or null', { field: 'callback' });
  if (Object.values(cb.headers ?? {}).includes(REDACTED)) {
    throw new ApiError('invalid_callback', 'callback.headers holds values the echo redacted: send them again as callback_headers');
  }
  return {
    ...out,
    callback_url: cb.url,
    callback_events: cb.events,
    ...(cb.headers && Object.keys(cb.headers).length ? { callback_headers: cb.headers } : {}),
  };
}

/**
 * Validates a POST /pco/v1/jobs body into a normalised JobSpec (defaults applied), or throws the
 * submission-time id of its first problem. Callback fields are returned raw for the shared
 * callback validator; storage reachability is checked by the caller.
 */
export function parseCreateBody(raw: unknown, uriOpts: { azureEmulator?: boolean } = {}): { spec: Omit<JobSpec, 'callback'>; callback: RawCallback } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('bad_request', 'Body must be a JSON object');
  const b = fromSpecEcho(raw as Record<string, any>);
  if (!b.input || typeof b.input !== 'object' || (b.input.folder === undefined && b.input.files === undefined)) {
    throw new ApiError('input_folder_required', 'input.folder (or input.files) is required');
  }
  if (b.input.folder !== undefined && b.input.files !== undefined) throw new ApiError('input_folder_or_files', 'Give input.folder or input.files, not both');
  const parsed = bodySchema.safeParse(b);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const id = (issue as { params?: { id?: ErrorId } }).params?.id ?? idForPath(issue.path);
    throw new ApiError(id, `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const p = parsed.data;
  const { folder, files } = p.input;
  if (folder !== undefined) {
    checkFolderUri(folder, 'input.folder', uriOpts);
  } else {
    if (!files || files.length < 1 || files.length > MAX_INPUT_FILES)
      throw new ApiError('input_folder_or_files', `input.files must hold 1 to ${MAX_INPUT_FILES} object URIs`);
    for (const f of files) {
      if (parseLocation(f, uriOpts).key === '' || f.endsWith('/')) throw new ApiError('input_folder_or_files', `not an object URI: ${f}`);
    }
    if (p.output.folder === undefined) throw new ApiError('bad_request', 'output.folder is required with input.files');
  }
  const outputFolder = p.output.folder ?? folder!;
  checkFolderUri(outputFolder, 'output.folder', uriOpts);
  const layout = p.output.layout ?? (folder !== undefined ? 'alongside' : 'flat');
  if (!(LAYOUTS as readonly string[]).includes(layout)) throw new ApiError('invalid_layout', `output.layout must be one of ${LAYOUTS.join(', ')}`);
  if (layout === 'alongside' && (folder === undefined || outputFolder !== folder)) {
    throw new ApiError('invalid_layout', 'output.layout alongside requires output.folder equal to input.folder');
  }
  const spec: Omit<JobSpec, 'callback'> = {
    name: p.name ?? null,
    input: { folder: folder ?? null, files: files ?? null, recursive: p.input.recursive, include: p.input.include, exclude: p.input.exclude },
    output: { folder: outputFolder, layout: layout as JobSpec['output']['layout'], on_existing: p.output.on_existing },
    options: { conversion_formats: p.options.conversion_formats, extra_outputs: p.options.extra_outputs, ocr: p.options.ocr },
    policy: p.policy,
    client_reference: p.client_reference ?? null,
  };
  return { spec, callback: { callback_url: b.callback_url, callback_events: b.callback_events, callback_headers: b.callback_headers } };
}

function checkFolderUri(uri: string, field: string, uriOpts: { azureEmulator?: boolean }): void {
  parseLocation(uri, uriOpts); // unsupported_uri_scheme on a bad scheme
  if (!uri.endsWith('/')) throw new ApiError(field === 'input.folder' ? 'input_folder_required' : 'bad_request', `${field} must be a folder URI ending in '/'`);
}
