import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import { parsePageRanges } from './page-ranges.js';

function rangeError(spec: string, pages: number): ApiError {
  try {
    parsePageRanges(spec, pages);
  } catch (err) {
    return err as ApiError;
  }
  throw new Error(`'${spec}' was accepted`);
}

describe('parsePageRanges', () => {
  it('selects every page when no range is given', () => {
    expect(parsePageRanges(undefined, 3)).toEqual([1, 2, 3]);
    expect(parsePageRanges('  ', 2)).toEqual([1, 2]);
  });

  it("reads '2,4-6' as pages 2, 4, 5 and 6", () => {
    expect(parsePageRanges('2,4-6', 10)).toEqual([2, 4, 5, 6]);
  });

  it("reads '2 - -2' as page 2 to the next-to-last", () => {
    expect(parsePageRanges('2 - -2', 6)).toEqual([2, 3, 4, 5]);
  });

  it('counts negative pages from the end and sorts and de-duplicates', () => {
    expect(parsePageRanges('-1, 1, -3--2, 2', 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it.each(['abc', '1-', '3-1', '0', '7', '-7', '1,,2', '2-9', '1.5'])("rejects '%s' with opts_bad_page_range", (spec) => {
    const err = rangeError(spec, 6);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.id).toBe('opts_bad_page_range');
    expect(err.retryable).toBe(false);
  });
});
