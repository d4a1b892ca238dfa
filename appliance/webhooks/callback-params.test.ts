import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import type { Resolver } from '../../core/ssrf.js';
import { type CallbackInput, type CallbackParamOptions, parseCallbackParams } from './callback-params.js';

const publicDns: Resolver = async () => ['93.184.215.14'];
const url = 'https://hooks.example.com/folio';

async function refused(input: CallbackInput, opts: CallbackParamOptions = {}): Promise<ApiError> {
  const err = await parseCallbackParams(input, { resolve: publicDns, ...opts }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, JSON.stringify(input)).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('parseCallbackParams (spec 4.12, 7.3)', () => {
  it('returns null when nothing is given and normalised params otherwise', async () => {
    expect(await parseCallbackParams({}, { resolve: publicDns })).toBeNull();
    expect(await parseCallbackParams({ callback_url: url }, { resolve: publicDns })).toEqual({ url, headers: {}, events: undefined });
    expect(
      await parseCallbackParams(
        { callback_url: url, callback_headers: { 'X-Token': 'abc', 'x-Tenant_id': 'é' }, callback_events: ['job.completed', 'file.error', 'job.completed'] },
        { resolve: publicDns },
      ),
    ).toEqual({ url, headers: { 'X-Token': 'abc', 'x-Tenant_id': 'é' }, events: ['job.completed', 'file.error'] });
    expect((await parseCallbackParams({ callback_url: url, callback_events: [] }, { resolve: publicDns }))!.events).toEqual([]);
  });

  it('refuses headers or events without a url (rule 1), with the caller-chosen id', async () => {
    expect((await refused({ callback_headers: { a: 'b' } })).id).toBe('bad_request');
    expect((await refused({ callback_events: ['file.error'] }, { errorId: 'invalid_callback' })).id).toBe('invalid_callback');
  });

  it('refuses empty, non-string, non-https and internal urls (rule 2)', async () => {
    for (const callback_url of [
      '',
      '  ',
      null,
      42,
      {},
      'http://hooks.example.com/',
      'ftp://hooks.example.com/',
      'not a url',
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://localhost/',
    ]) {
      expect((await refused({ callback_url }, { errorId: 'invalid_callback' })).id).toBe('invalid_callback');
    }
    await refused({ callback_url: url }, { resolve: async () => ['10.0.0.7'] });
    await refused({ callback_url: `https://hooks.example.com/${'a'.repeat(2100)}` });
  });

  it('allows http and private addresses in lab mode only', async () => {
    expect(await parseCallbackParams({ callback_url: 'http://127.0.0.1:8080/x' }, { allowPrivate: true })).toMatchObject({ url: 'http://127.0.0.1:8080/x' });
  });

  it('refuses malformed, reserved, too many and too large headers (rule 3)', async () => {
    const bad: unknown[] = [
      null,
      'x',
      ['a'],
      { a: 1 },
      { a: null },
      { 'bad name': 'v' },
      { 'a:b': 'v' },
      { '': 'v' },
      { a: 'line\r\nInjected: 1' },
      { a: 'nul\0' },
      { Host: 'x' },
      { 'content-type': 'x' },
      { 'Content-Length': '1' },
      { 'Transfer-Encoding': 'x' },
      { Connection: 'x' },
      { 'User-Agent': 'x' },
      { 'Service-Signature': 'x' },
      { 'service-anything': 'x' },
      { 'X-A': '1', 'x-a': '2' },
      { a: '😀' },
      Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`h${i}`, 'v'])),
      { big: 'x'.repeat(4094) },
    ];
    for (const callback_headers of bad) await refused({ callback_url: url, callback_headers });
    // exactly at the limits is fine
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`h${i}`, 'v']));
    expect((await parseCallbackParams({ callback_url: url, callback_headers: ten }, { resolve: publicDns }))!.headers).toEqual(ten);
    const full = { big: 'x'.repeat(4093) };
    expect((await parseCallbackParams({ callback_url: url, callback_headers: full }, { resolve: publicDns }))!.headers).toEqual(full);
  });

  it('refuses unknown events (rule 4)', async () => {
    for (const callback_events of ['file.error', [1], ['file.started'], ['job.completed', 'JOB.COMPLETED'], null]) {
      await refused({ callback_url: url, callback_events });
    }
  });
});
