import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { ApiError } from '../../../core/errors.js';
import { GuardedFetchError, guardedFetch, type Resolver } from '../../../core/ssrf.js';
import type { Region } from './text-options.js';

/** Spec 8: base64 image in a body, image fetched from a URL (and its time limit). */
export const MAX_BASE64_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_URL_IMAGE_BYTES = 10 * 1024 * 1024;
export const URL_FETCH_TIMEOUT_MS = 15_000;
/** A multipart upload carries the image itself: held to the URL limit. */
export const MAX_UPLOAD_IMAGE_BYTES = 10 * 1024 * 1024;
/**
 * Pixels an image may have (the spec shows none): 100 megapixels, a 10,000 × 10,000 scan. Its
 * header is read first, so a small file claiming a huge image (30,000 × 30,000) is refused before
 * a byte of it is decoded.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

export interface FetchImageOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
}

const downloadError = (url: string, why: string) => new ApiError('image_download_error', `Could not download the image: ${why}`, { url });

/**
 * The bytes behind `src`: a base64 data URL (≤ 2 MB decoded) or an http(s) URL fetched through
 * the SSRF guard (≤ 10 MB, 15 s; redirects are not followed). Anything the fetch refuses or
 * fails on — a private address without lab mode included — is image_download_error with the url.
 */
export async function imageFromSrc(src: string, opts: FetchImageOptions): Promise<Buffer> {
  if (/^data:/i.test(src)) {
    const m = /^data:[^,;]*((?:;[^,;]*)*?);base64,(.*)$/is.exec(src);
    if (!m) throw new ApiError('bad_request', 'src data URLs must be base64 encoded', { field: 'src' });
    const b64 = m[2]!.replace(/\s+/g, '');
    if (Math.floor((b64.length * 3) / 4) - (b64.match(/=+$/)?.[0].length ?? 0) > MAX_BASE64_IMAGE_BYTES) {
      throw new ApiError('sys_request_too_large', `The base64 image is larger than ${MAX_BASE64_IMAGE_BYTES} bytes`);
    }
    return Buffer.from(b64, 'base64');
  }
  if (!/^https?:\/\//i.test(src)) throw new ApiError('bad_request', 'src must be an http(s) URL or a base64 data URL', { field: 'src' });
  let res: Response;
  try {
    res = await guardedFetch(
      src,
      {},
      {
        allowPrivate: opts.allowPrivate,
        resolve: opts.resolve,
        schemes: ['http:', 'https:'],
        timeoutMs: URL_FETCH_TIMEOUT_MS,
        maxBodyBytes: MAX_URL_IMAGE_BYTES,
      },
    );
  } catch (err) {
    if (err instanceof GuardedFetchError || err instanceof ApiError) throw downloadError(src, err.message);
    throw downloadError(src, 'network error');
  }
  if (res.status < 200 || res.status > 299) throw downloadError(src, `HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Collects a multipart file part into memory, up to the caller's limit (busboy enforces it). */
export async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes the image (any format sharp reads, first frame only) and re-encodes it as PNG for the
 * inference pool, cropped to `region` when given. The re-encode drops EXIF, so its orientation
 * is ignored as 4.2 says. A region reaching past the image is clipped; one wholly outside it is
 * bad_request. Undecodable bytes are image_decode_error, and so are an image over
 * MAX_IMAGE_PIXELS and SVG: a drawing is not a scan, and its renderer would follow references
 * (entities, linked images) a user could point at the appliance's own files.
 */
export async function prepareImage(bytes: Buffer, region: Region | null): Promise<PreparedImage> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw new ApiError('image_decode_error', 'The image could not be read');
  }
  if (!meta.width || !meta.height) throw new ApiError('image_decode_error', 'The image could not be read');
  if (meta.format === 'svg') throw new ApiError('image_decode_error', 'SVG images are not read: send a raster image (PNG, JPEG, WebP, TIFF, GIF)');
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
    throw new ApiError(
      'image_decode_error',
      `The image is ${meta.width} × ${meta.height} pixels; at most ${MAX_IMAGE_PIXELS.toLocaleString('en-US')} pixels are read`,
    );
  }
  let img = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS });
  if (region) {
    const left = Math.min(region.top_left_x, meta.width);
    const top = Math.min(region.top_left_y, meta.height);
    const width = Math.min(region.width, meta.width - left);
    const height = Math.min(region.height, meta.height - top);
    if (width <= 0 || height <= 0) throw new ApiError('bad_request', 'region lies outside the image', { field: 'region' });
    img = img.extract({ left, top, width, height });
  }
  try {
    const { data, info } = await img.png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch {
    throw new ApiError('image_decode_error', 'The image could not be read');
  }
}
