import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import busboy from 'busboy';
import { ApiError } from '../../../core/errors.js';

/** Room for the form's own bytes (boundaries, part headers, options_json) beyond the file. */
const FORM_OVERHEAD_BYTES = 2 * 1024 * 1024;
const MAX_FIELD_BYTES = 1024 * 1024;

export interface MultipartOptions {
  /** Largest file accepted; past it the upload fails with sys_request_too_large. */
  maxFileBytes: number;
  /** Largest whole body, every part and boundary counted; past it sys_request_too_large. @default maxFileBytes plus room for the form */
  maxBodyBytes?: number;
  /** Called once, for the part named `file`: must consume `body` (write it to storage). */
  store: (filename: string, body: Readable) => Promise<void>;
}

export interface ReceivedMultipart {
  fields: Record<string, string>;
  file: { filename: string; bytes: number } | null;
}

const tooLarge = (max: number) => new ApiError('sys_request_too_large', `The file is larger than ${max} bytes`);
const bodyTooLarge = (max: number) => new ApiError('sys_request_too_large', `The multipart body is larger than ${max} bytes`);

/**
 * Reads a multipart/form-data body as a stream: the `file` part goes straight to `opts.store`
 * as it arrives (never held in memory), other parts are small text fields. Other file parts are
 * drained and ignored. Resolves once the body is read and the file is stored.
 */
export function receiveMultipart(req: Request, opts: MultipartOptions): Promise<ReceivedMultipart> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  const maxBody = opts.maxBodyBytes ?? opts.maxFileBytes + FORM_OVERHEAD_BYTES;
  if (declared > maxBody) return Promise.reject(opts.maxBodyBytes === undefined ? tooLarge(opts.maxFileBytes) : bodyTooLarge(maxBody));
  if (!req.body) return Promise.reject(new ApiError('bad_request', 'The multipart body is empty'));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': req.headers.get('content-type') ?? '' },
      limits: { fileSize: opts.maxFileBytes, fieldSize: MAX_FIELD_BYTES, fields: 20, parts: 40 },
    });
  } catch (err) {
    return Promise.reject(new ApiError('bad_request', `Malformed multipart body: ${(err as Error).message}`));
  }
  const input = Readable.fromWeb(req.body as unknown as NodeWebStream);

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: ReceivedMultipart['file'] = null;
    let writing: Promise<void> | undefined;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      input.unpipe(parser);
      input.destroy();
      reject(err);
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new ApiError('sys_request_too_large', `Field ${name} is larger than ${MAX_FIELD_BYTES} bytes`));
      fields[name] = value;
    });
    parser.on('file', (name, part, info) => {
      if (name !== 'file' || writing) {
        part.resume();
        return;
      }
      const body = new PassThrough();
      // The store may not be listening yet when the limit hits; its own failure reports it.
      body.on('error', () => undefined);
      let bytes = 0;
      let truncated = false;
      part.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      // busboy truncates at fileSize; failing the store's stream stops a partial object being kept.
      part.on('limit', () => {
        truncated = true;
        body.destroy(tooLarge(opts.maxFileBytes));
      });
      part.pipe(body);
      const filename = info.filename ?? '';
      writing = opts.store(filename, body).then(() => {
        if (truncated) throw tooLarge(opts.maxFileBytes);
        file = { filename, bytes };
      });
      writing.catch((err) => {
        part.resume();
        fail(truncated ? tooLarge(opts.maxFileBytes) : err);
      });
    });
    parser.on('error', (err) => fail(new ApiError('bad_request', `Malformed multipart body: ${(err as Error).message}`)));
    parser.on('partsLimit', () => fail(new ApiError('bad_request', 'Too many parts in the multipart body')));
    parser.on('fieldsLimit', () => fail(new ApiError('bad_request', 'Too many fields in the multipart body')));
    parser.on('close', () => {
      void (async () => {
        try {
          await writing;
        } catch {
          return; // already failed
        }
        if (!settled) {
          settled = true;
          resolve({ fields, file });
        }
      })();
    });
    input.on('error', (err) => fail(new ApiError('bad_request', `The request body could not be read: ${err.message}`)));
    // A body without (or understating) content-length is counted as it arrives.
    let received = 0;
    input.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBody) fail(opts.maxBodyBytes === undefined ? tooLarge(opts.maxFileBytes) : bodyTooLarge(maxBody));
    });
    input.pipe(parser);
  });
}
