import { ApiError } from '../../core/errors.js';
import { type Location, parseLocation } from '../../core/storage/index.js';

/** Longest source_uri and destination_uri accepted. */
export const MAX_URI_LENGTH = 4096;
/** The basename outputs get when the submitted one would overflow the provider's key limit (spec 4.9). */
export const FALLBACK_BASENAME = 'output';
/** Key limits of spec 4.9: bytes for S3 and GCS keys; UTF-16 units and path segments for blob storage. */
export const S3_GCS_KEY_MAX_BYTES = 1024;
export const BLOB_KEY_MAX_CHARS = 1024;
export const BLOB_KEY_MAX_SEGMENTS = 254;

/** Outputs always written to a destination (spec 4.9: MMD, and line data with it). */
export const BASE_OUTPUTS = ['mmd', 'lines.json', 'lines.mmd.json'] as const;

export type SourceKind = { kind: 'public'; url: string; origin: string } | { kind: 'bucket'; uri: string; location: Location };

/**
 * What a source_uri is (spec 2.10): s3:// and gs:// and blob-storage URLs (recognised by host, or
 * by path in emulator mode) need a data source; other https URLs are public and are fetched
 * through the SSRF guard. Lab mode (FOLIO_ALLOW_PRIVATE_URLS) also lets plain http through.
 */
export function classifySource(raw: unknown, opts: { azureEmulator?: boolean; allowPrivate: boolean }): SourceKind {
  if (typeof raw !== 'string' || !raw.trim()) throw new ApiError('bad_request', 'source_uri must be a non-empty string', { field: 'source_uri' });
  if (raw.length > MAX_URI_LENGTH) throw new ApiError('bad_request', `source_uri is longer than ${MAX_URI_LENGTH} characters`, { field: 'source_uri' });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('bad_request', 'source_uri is not a valid URI', { field: 'source_uri' });
  }
  const bucket = bucketLocation(raw, opts.azureEmulator);
  if (bucket) return { kind: 'bucket', uri: raw, location: bucket };
  const schemes = opts.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    throw new ApiError('bad_request', `source_uri scheme ${url.protocol.replace(':', '')} is not supported (s3, gs, https)`, { field: 'source_uri' });
  if (!url.hostname) throw new ApiError('bad_request', 'source_uri has no host', { field: 'source_uri' });
  return { kind: 'public', url: url.href, origin: url.origin };
}

const AZURE_BLOB_HOST = /^https:\/\/[a-z0-9]+\.blob\.core\.windows\.net\//i;

function bucketLocation(raw: string, azureEmulator?: boolean): Location | null {
  // Only what can be a bucket goes to parseLocation, whose refusals are exceptions (costly by the 200,000).
  const bucketLike = /^(s3|gs):\/\//i.test(raw) || AZURE_BLOB_HOST.test(raw) || (azureEmulator === true && /^https?:\/\//i.test(raw));
  if (!bucketLike) return null;
  try {
    const loc = parseLocation(raw, { azureEmulator });
    return loc.scheme === 'file' ? null : loc;
  } catch {
    return null;
  }
}

export interface Destination {
  uri: string;
  location: Location;
  /** Folder prefix inside the bucket, '' or ending in '/'. */
  prefix: string;
  /** What outputs are named: the submitted basename, or `output` when it would not fit. */
  basename: string;
}

/**
 * Validates destination_uri (a bucket folder reached through a data source) and works out the
 * output basename under the provider's key limits: when `<prefix><basename>.<ext>` is too long for
 * the longest extension written but `output.<ext>` fits, the basename falls back to `output`;
 * when even that does not fit, 400 destination_uri_too_long.
 */
export function planDestination(raw: unknown, basename: string, exts: readonly string[], opts: { azureEmulator?: boolean }): Destination {
  if (typeof raw !== 'string' || !raw.trim()) throw new ApiError('bad_request', 'destination_uri must be a non-empty string', { field: 'destination_uri' });
  const location = raw.length <= MAX_URI_LENGTH * 4 ? bucketLocation(raw, opts.azureEmulator) : null;
  if (!location)
    throw new ApiError('bad_request', 'destination_uri must be an s3://, gs:// or blob-storage URL of a registered data source', { field: 'destination_uri' });
  const prefix = location.key === '' || location.key.endsWith('/') ? location.key : `${location.key}/`;
  const longest = exts.reduce((a, b) => (b.length > a.length ? b : a), '');
  const fits = (name: string) => keyFits(location, `${prefix}${name}.${longest}`);
  if (fits(basename)) return { uri: raw, location, prefix, basename };
  if (fits(FALLBACK_BASENAME)) return { uri: raw, location, prefix, basename: FALLBACK_BASENAME };
  throw new ApiError(
    'destination_uri_too_long',
    `Output keys under ${raw} would exceed the ${location.scheme === 'azure' ? 'blob storage' : location.scheme.toUpperCase()} key limit`,
    { field: 'destination_uri' },
  );
}

/** Whether an object key is within its provider's limits (spec 4.9). */
export function keyFits(location: Pick<Location, 'scheme'>, key: string): boolean {
  if (location.scheme === 'azure') return key.length <= BLOB_KEY_MAX_CHARS && key.split('/').length <= BLOB_KEY_MAX_SEGMENTS;
  return Buffer.byteLength(key, 'utf8') <= S3_GCS_KEY_MAX_BYTES;
}
