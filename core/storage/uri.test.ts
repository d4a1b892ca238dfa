import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { joinUri, parseLocation, rootUriOf } from './uri.js';

function apiErrorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('parseLocation', () => {
  it('parses s3 URIs into bucket and key', () => {
    const loc = parseLocation('s3://my-bucket/in/scans/page%201.pdf');
    expect(loc).toEqual({ scheme: 's3', bucket: 'my-bucket', key: 'in/scans/page 1.pdf' });
    expect(rootUriOf(loc)).toBe('s3://my-bucket/');
    expect(parseLocation('s3://my-bucket')).toEqual({ scheme: 's3', bucket: 'my-bucket', key: '' });
    expect(parseLocation('s3://my-bucket/folder/').key).toBe('folder/');
  });

  it('parses gs URIs', () => {
    const loc = parseLocation('gs://gbucket/a/b.png');
    expect(loc).toEqual({ scheme: 'gs', bucket: 'gbucket', key: 'a/b.png' });
    expect(rootUriOf(loc)).toBe('gs://gbucket/');
  });

  it('parses file URIs relative to the filesystem root', () => {
    const loc = parseLocation('file:///srv/share/in/x%20y.pdf');
    expect(loc).toEqual({ scheme: 'file', bucket: '/', key: 'srv/share/in/x y.pdf' });
    expect(rootUriOf(loc)).toBe('file:///');
  });

  it('parses Azure blob https URLs: account endpoint, container, key', () => {
    const loc = parseLocation('https://acct1.blob.core.windows.net/container/dir/f%C3%BC.pdf');
    expect(loc).toEqual({ scheme: 'azure', endpoint: 'https://acct1.blob.core.windows.net', bucket: 'container', key: 'dir/fü.pdf' });
    expect(rootUriOf(loc)).toBe('https://acct1.blob.core.windows.net/container/');
  });

  it('parses the Azurite emulator form only when enabled', () => {
    const uri = 'http://127.0.0.1:10000/devstoreaccount1/inbox/a/b.pdf';
    const loc = parseLocation(uri, { azureEmulator: true });
    expect(loc).toEqual({ scheme: 'azure', endpoint: 'http://127.0.0.1:10000/devstoreaccount1', bucket: 'inbox', key: 'a/b.pdf' });
    expect(rootUriOf(loc)).toBe('http://127.0.0.1:10000/devstoreaccount1/inbox/');
    expect(apiErrorOf(() => parseLocation(uri)).id).toBe('unsupported_uri_scheme');
  });

  it('rejects other http(s) hosts and plain http to Azure', () => {
    expect(apiErrorOf(() => parseLocation('https://example.com/a/b')).id).toBe('unsupported_uri_scheme');
    expect(apiErrorOf(() => parseLocation('http://acct1.blob.core.windows.net/c/k')).id).toBe('unsupported_uri_scheme');
  });

  it('rejects unsupported schemes and non-URIs with unsupported_uri_scheme', () => {
    for (const uri of ['ftp://host/file.pdf', 'hdfs://nn/x', 'not a uri', '/abs/path']) {
      const err = apiErrorOf(() => parseLocation(uri));
      expect(err.id).toBe('unsupported_uri_scheme');
      expect(err.status).toBe(400);
    }
  });

  it('requires a bucket for s3 and gs', () => {
    expect(apiErrorOf(() => parseLocation('s3:///key')).id).toBe('bad_request');
  });
});

describe('joinUri', () => {
  it('appends an encoded key to a root, keeping slashes', () => {
    expect(joinUri('s3://b/', 'out/page 1/ü.mmd')).toBe('s3://b/out/page%201/%C3%BC.mmd');
    const back = parseLocation(joinUri('gs://b/', 'x y/z#1.txt'));
    expect(back.key).toBe('x y/z#1.txt');
  });
});
