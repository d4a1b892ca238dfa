import { describe, expect, it } from 'vitest';
import { RULE, type MathSymbol } from '../types.js';
import { scriptPlaces } from './scripts.js';

const sym = (latex: string, x0: number, y0: number, x1: number, y1: number): MathSymbol => ({ latex, box: { x0, y0, x1, y1 }, confidence: 0.9 });

describe('scriptPlaces', () => {
  it('finds a raised 2 as the superscript of the letter before it, and its script as one level deeper', () => {
    const symbols = [sym('a', 0, 10, 30, 40), sym('2', 34, -4, 50, 18), sym('n', 52, -12, 60, -2), sym('+', 70, 12, 100, 38), sym('1', 110, 0, 122, 40)];
    const places = scriptPlaces(symbols);
    expect(places.get(1)).toEqual({ depth: 1, base: 0 });
    expect(places.get(2)?.depth).toBe(2);
    expect(places.has(0) || places.has(3) || places.has(4)).toBe(false);
  });

  it('keeps a numerator beside a letter in its fraction: raised against the letter, yet no script of it', () => {
    const symbols = [sym('a', 0, 10, 30, 40), sym('1', 44, -22, 56, 12), sym(RULE, 38, 22, 64, 25), sym('2', 42, 34, 58, 68)];
    expect(scriptPlaces(symbols).size).toBe(0);
  });
});
