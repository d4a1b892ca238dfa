import { describe, expect, it } from 'vitest';
import { canonicalJson, hashId, safeEqual } from './ids.js';

describe('ids', () => {
  it('hashes equal objects equally whatever their key order', () => {
    expect(hashId('j_', { a: 1, b: { c: [1, 2], d: 'x' } })).toBe(hashId('j_', { b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(hashId('j_', { a: 1 })).not.toBe(hashId('j_', { a: 2 }));
    expect(canonicalJson({ b: 1, a: undefined, c: null })).toBe('{"b":1,"c":null}');
  });

  it('compares strings in constant time and rejects different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
