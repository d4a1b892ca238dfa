import { ApiError } from '../../../core/errors.js';
import { readJson } from '../read-json.js';
import { receiveMultipart } from './multipart.js';
import { parseOptionsJson } from './submission.js';
import { collect, MAX_UPLOAD_IMAGE_BYTES } from './text-image.js';

/**
 * The body of an image request (/v3/text, /v3/latex): JSON `{src, ...options}` up to `maxJsonBytes`,
 * or multipart `file` + `options_json`, the whole multipart payload within `maxJsonBytes` too (part 8:
 * the limit covers the payload including the file). Options go through `parse`; the upload comes back as
 * `upload`, otherwise `src` is required (bad_request naming the missing field).
 */
export async function readImageRequest<T extends { src?: string }>(
  req: Request,
  parse: (raw: unknown) => T,
  maxJsonBytes: number,
): Promise<{ options: T; upload?: Buffer }> {
  if ((req.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    let upload: Buffer | undefined;
    const maxFileBytes = Math.min(MAX_UPLOAD_IMAGE_BYTES, maxJsonBytes);
    const form = await receiveMultipart(req, { maxFileBytes, maxBodyBytes: maxJsonBytes, store: async (_name, body) => void (upload = await collect(body)) });
    const options = parse(parseOptionsJson(form.fields.options_json));
    if (!form.file || !upload) throw new ApiError('bad_request', 'The multipart body needs a part named file', { field: 'file' });
    return { options, upload };
  }
  const options = parse(await readJson(req, maxJsonBytes));
  if (options.src === undefined) throw new ApiError('bad_request', 'src is required, or upload the image as multipart/form-data', { field: 'src' });
  return { options };
}
