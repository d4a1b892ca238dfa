import { describe, expect, it } from 'vitest';
import { ctcCharset, ctcGreedyDecode, latinClasses } from './ctc.js';

/** Probability rows with `p` on the given class and the rest spread evenly. */
function rows(classes: number, picks: [number, number][]): Float32Array {
  const out = new Float32Array(picks.length * classes);
  picks.forEach(([k, p], t) => {
    out.fill((1 - p) / (classes - 1), t * classes, (t + 1) * classes);
    out[t * classes + k] = p;
  });
  return out;
}

describe('ctcCharset', () => {
  it('puts the blank first and a space last, ignoring a trailing newline and CRs', () => {
    expect(ctcCharset('a\r\nb\nc\n')).toEqual(['', 'a', 'b', 'c', ' ']);
  });
});

describe('ctcGreedyDecode', () => {
  const charset = ['', 'a', 'b', ' '];

  it('collapses repeats, drops blanks and keeps a letter repeated across a blank', () => {
    const probs = rows(4, [
      [1, 0.9],
      [1, 0.8],
      [0, 0.9],
      [1, 0.7],
      [3, 0.6],
      [2, 0.5],
    ]);
    const decoded = ctcGreedyDecode(probs, 0, 6, 4, charset);
    expect(decoded.text).toBe('aa b');
    // one probability per emitted character: the first step of each run
    expect(decoded.confidence).toBeCloseTo((0.9 + 0.7 + 0.6 + 0.5) / 4);
    // each character keeps the steps of its run
    expect(decoded.chars.map((c) => [c.char, c.first, c.last])).toEqual([
      ['a', 0, 1],
      ['a', 3, 3],
      [' ', 4, 4],
      ['b', 5, 5],
    ]);
  });

  it('reads a sequence at an offset and gives 0 confidence to an all-blank sequence', () => {
    const probs = rows(4, [
      [2, 0.9],
      [0, 0.99],
      [0, 0.99],
    ]);
    expect(ctcGreedyDecode(probs, 4, 2, 4, charset)).toEqual({ text: '', confidence: 0, chars: [] });
  });
});

describe('latinClasses', () => {
  it('keeps the blank, Latin, Greek and maths symbols, and leaves out Han, kana, Hangul and fullwidth forms', () => {
    const charset = ['', 'a', 'é', 'α', '∑', '(', '（', '丨', 'の', '한', '：', '。', ' '];
    expect([...latinClasses(charset)]).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('makes the decoder emit the best allowed class where a left-out one is likelier', () => {
    const charset = ['', '(', '（', 'x'];
    const probs = new Float32Array([0.1, 0.3, 0.6, 0.0, 0.9, 0.0, 0.0, 0.1, 0.1, 0.0, 0.0, 0.9]);
    expect(ctcGreedyDecode(probs, 0, 3, 4, charset).text).toBe('（x');
    expect(ctcGreedyDecode(probs, 0, 3, 4, charset, latinClasses(charset)).text).toBe('(x');
  });
});
