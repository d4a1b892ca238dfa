import { ApiError } from '../errors.js';

export type Scheme = 's3' | 'gs' | 'azure' | 'file';

/** A storage location: which bucket, and the key (or folder prefix) inside it. */
export interface Location {
  scheme: Scheme;
  /** Bucket, container, or (file) the root '/'. */
  bucket: string;
  /** Azure only: the account endpoint, e.g. https://acct.blob.core.windows.net */
  endpoint?: string;
  key: string;
}

const AZURE_HOST = /^[a-z0-9]+\.blob\.core\.windows\.net$/;

/**
 * Parses s3://bucket/key, gs://bucket/key, file:///abs/path and Azure blob URLs
 * (https://<account>.blob.core.windows.net/<container>/<key>, or an emulator
 * address http://host:port/<account>/<container>/<key> when `azureEmulator` is on).
 */
export function parseLocation(uri: string, opts: { azureEmulator?: boolean } = {}): Location {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ApiError('unsupported_uri_scheme', `not a URI: ${uri}`);
  }
  const path = decodeURIComponent(url.pathname);
  switch (url.protocol) {
    case 's3:':
    case 'gs:':
      if (!url.hostname) throw new ApiError('bad_request', `missing bucket in ${uri}`);
      return { scheme: url.protocol === 's3:' ? 's3' : 'gs', bucket: url.hostname, key: path.replace(/^\//, '') };
    case 'file:':
      return { scheme: 'file', bucket: '/', key: path.replace(/^\//, '') };
    case 'https:':
    case 'http:': {
      const parts = path.replace(/^\//, '').split('/');
      if (AZURE_HOST.test(url.hostname) && url.protocol === 'https:' && parts.length >= 1 && parts[0]) {
        return { scheme: 'azure', endpoint: url.origin, bucket: parts[0], key: parts.slice(1).join('/') };
      }
      if (opts.azureEmulator && parts.length >= 2) {
        return { scheme: 'azure', endpoint: `${url.origin}/${parts[0]}`, bucket: parts[1], key: parts.slice(2).join('/') };
      }
      throw new ApiError('unsupported_uri_scheme', `not a blob-storage URL: ${uri}`);
    }
    default:
      throw new ApiError('unsupported_uri_scheme', `unsupported scheme ${url.protocol.replace(':', '')} in ${uri}`);
  }
}

/** The URI of the bucket root of a location, ending in '/'. */
export function rootUriOf(loc: Location): string {
  switch (loc.scheme) {
    case 'file':
      return 'file:///';
    case 'azure':
      return `${loc.endpoint}/${loc.bucket}/`;
    default:
      return `${loc.scheme}://${loc.bucket}/`;
  }
}

/** Joins a bucket root URI and a key. */
export function joinUri(rootUri: string, key: string): string {
  return rootUri + key.split('/').map(encodeURIComponent).join('/');
}
