import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors.js';
import type { PageRecognition } from '../model.js';
import { excludedAlphabets } from '../../core/options/alphabets.js';
import { detectedAlphabets, withoutAlphabets } from './alphabets.js';

const box = { x: 0, y: 0, width: 10, height: 10 };
const page = (...texts: string[]): PageRecognition => ({
  width: 10,
  height: 10,
  lines: texts.map((text) => ({ text, confidence: 0.9, box, kind: 'text' as const, words: text.split(' ').map((w) => ({ text: w, confidence: 0.9, box })) })),
});

describe('alphabets_allowed and detected_alphabets', () => {
  it('lists the codes set to false and refuses unknown codes and non-boolean values', () => {
    expect(excludedAlphabets({ zh: false, en: true, ru: false })).toEqual(['zh', 'ru']);
    expect(excludedAlphabets(undefined)).toEqual([]);
    expect(() => excludedAlphabets({ klingon: false })).toThrow(ApiError);
    expect(() => excludedAlphabets({ zh: 'no' })).toThrow(expect.objectContaining({ id: 'bad_request', extras: { field: 'alphabets_allowed.zh' } }));
  });

  it('removes the excluded alphabets from lines and words, dropping lines left empty, leaving maths alone', () => {
    const r = page('Hello 世界 world', '中文', 'Привет there');
    r.lines.push({ text: '', confidence: 0.5, box, kind: 'math', math: { latex: 'x', confidence: 0.5, confidenceRate: 0.5, symbolCount: 1 } });
    const out = withoutAlphabets(r, ['zh', 'ru']);
    expect(out.lines.map((l) => l.text)).toEqual(['Hello world', 'there', '']);
    expect(out.lines[0]!.words!.map((w) => w.text)).toEqual(['Hello', 'world']);
    expect(out.lines[2]!.kind).toBe('math');
  });

  it('flags every code, true where the text holds its characters', () => {
    const r = page('Hello Привет ời');
    r.lines.push({ text: '中文', confidence: 0.5, box, kind: 'math', math: { latex: 'x', confidence: 0.5, confidenceRate: 0.5, symbolCount: 1 } });
    const [flags] = detectedAlphabets(r.lines);
    expect(flags).toMatchObject({ en: true, ru: true, vi: true, zh: false, hi: false, ko: false }); // a maths line's read is left out
    expect(Object.keys(flags)).toHaveLength(12);
  });
});
