import { describe, expect, it } from 'vitest';
import { lineWords } from './words.js';

const span = (char: string, x0: number, x1: number, p = 0.9) => ({ char, x0, x1, p });

describe('lineWords', () => {
  it('splits a line at spaces and boxes each word from its first to its last character', () => {
    const spans = [span('a', 12, 20), span('b', 20, 30, 0.5), span(' ', 30, 36), span(' ', 36, 40), span('c', 40, 52)];
    const words = lineWords(spans, { x: 10, y: 5, width: 60, height: 20 });
    expect(words.map((w) => w.text)).toEqual(['ab', 'c']);
    expect(words[0]!.box).toEqual({ x: 12, y: 5, width: 18, height: 20 });
    expect(words[0]!.confidence).toBeCloseTo(0.7);
  });

  it('clamps a word to the line it belongs to', () => {
    const words = lineWords([span('x', 2, 30), span('y', 30, 90)], { x: 10, y: 0, width: 60, height: 10 });
    expect(words[0]!.box.x).toBe(10);
    expect(words[0]!.box.x + words[0]!.box.width).toBe(70);
  });
});
