import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import { BASE_OUTPUTS, classifySource, keyFits, planDestination } from './uris.js';

const idOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as ApiError).id;
  }
  return 'none';
};

describe('classifySource', () => {
  it('sends s3, gs and blob URLs to a data source and keeps https public', () => {
    expect(classifySource('s3://papers/a.pdf', { allowPrivate: false })).toMatchObject({
      kind: 'bucket',
      location: { scheme: 's3', bucket: 'papers', key: 'a.pdf' },
    });
    expect(classifySource('gs://papers/a.pdf', { allowPrivate: false }).kind).toBe('bucket');
    expect(classifySource('https://acct.blob.core.windows.net/c/a.pdf', { allowPrivate: false })).toMatchObject({
      kind: 'bucket',
      location: { scheme: 'azure', bucket: 'c' },
    });
    expect(classifySource('https://example.com/a.pdf', { allowPrivate: false })).toEqual({
      kind: 'public',
      url: 'https://example.com/a.pdf',
      origin: 'https://example.com',
    });
  });

  it('refuses other schemes, and plain http outside lab mode', () => {
    expect(idOf(() => classifySource('ftp://example.com/a.pdf', { allowPrivate: false }))).toBe('bad_request');
    expect(idOf(() => classifySource('http://example.com/a.pdf', { allowPrivate: false }))).toBe('bad_request');
    expect(classifySource('http://example.com/a.pdf', { allowPrivate: true }).kind).toBe('public');
    expect(idOf(() => classifySource(42, { allowPrivate: false }))).toBe('bad_request');
  });
});

describe('planDestination key limits (spec 4.9)', () => {
  it('counts UTF-8 bytes for S3 and GCS keys', () => {
    const key = 'é'.repeat(512); // 1024 bytes
    expect(keyFits({ scheme: 's3' }, key)).toBe(true);
    expect(keyFits({ scheme: 's3' }, `${key}x`)).toBe(false);
    expect(keyFits({ scheme: 'azure' }, `${key}x`)).toBe(true); // 513 UTF-16 units
  });

  it('limits blob keys to 1024 UTF-16 units and 254 segments', () => {
    expect(keyFits({ scheme: 'azure' }, 'a'.repeat(1024))).toBe(true);
    expect(keyFits({ scheme: 'azure' }, 'a'.repeat(1025))).toBe(false);
    expect(keyFits({ scheme: 'azure' }, `${'a/'.repeat(253)}a`)).toBe(true);
    expect(keyFits({ scheme: 'azure' }, `${'a/'.repeat(254)}a`)).toBe(false);
  });

  it('falls back to output when only the basename overflows, and refuses a prefix that cannot fit', () => {
    const longest = BASE_OUTPUTS.reduce((a, b) => (b.length > a.length ? b : a)); // lines.mmd.json
    const fitting = 'b'.repeat(1024 - 'out/'.length - longest.length - 1);
    expect(planDestination('s3://bkt/out/', fitting, BASE_OUTPUTS, {}).basename).toBe(fitting);
    expect(planDestination('s3://bkt/out', `${fitting}b`, BASE_OUTPUTS, {})).toMatchObject({ basename: 'output', prefix: 'out/' });
    expect(idOf(() => planDestination(`s3://bkt/${'p'.repeat(1010)}/`, 'x', BASE_OUTPUTS, {}))).toBe('destination_uri_too_long');
    expect(idOf(() => planDestination('https://example.com/out/', 'x', BASE_OUTPUTS, {}))).toBe('bad_request');
  });
});
