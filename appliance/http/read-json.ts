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
