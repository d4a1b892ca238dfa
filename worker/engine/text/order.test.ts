import { describe, expect, it } from 'vitest';
import { readingOrder } from './order.js';

const line = (id: string, x: number, y: number, width = 100, height = 20) => ({ id, box: { x, y, width, height } });

describe('readingOrder', () => {
  it('reads top to bottom, and left to right within a band even when a box sits a little higher', () => {
    const items = [line('c', 10, 60), line('b', 300, 8), line('a', 10, 10), line('d', 300, 62)];
    expect(readingOrder(items).map((i) => i.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps lines whose centres fall below the band in a band of their own', () => {
    const items = [line('second', 10, 25), line('first', 200, 0)];
    expect(readingOrder(items).map((i) => i.id)).toEqual(['first', 'second']);
  });
});
