import { ApiError } from '../../core/errors.js';

/** Reads a JSON body up to `maxBytes`; malformed → bad_request, too large → sys_request_too_large. */
export async function readJson(req: Request, maxBytes = 5 * 1024 * 1024): Promise<unknown> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new ApiError('sys_request_too_large', `Body over ${maxBytes} bytes`);
  const buf = await req.arrayBuffer();
  if (buf.byteLength > maxBytes) throw new ApiError('sys_request_too_large', `Body over ${maxBytes} bytes`);
  try {
    return JSON.parse(new TextDecoder().decode(buf));
  } catch {
    throw new ApiError('bad_request', 'Body is not valid JSON');
  }
}

/** A JSON object body, or undefined when there is none; anything else is 400 bad_request. */
export async function readOptionalObject(req: Request, maxBytes: number): Promise<Record<string, unknown> | undefined> {
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new ApiError('sys_request_too_large', `Body over ${maxBytes} bytes`);
  if (!text.trim()) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'Body is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('bad_request', 'Body must be a JSON object');
  return body as Record<string, unknown>;
}
