import { describe, expect, it } from 'vitest';
import { punctuationWidth } from './fullwidth.js';

describe('punctuationWidth', () => {
  it('turns fullwidth punctuation read in Latin text halfwidth when the form is left to the text', () => {
    expect(punctuationWidth('for （int i = 0; i ＜ n） ｛', null)).toBe('for (int i = 0; i < n) {');
    expect(punctuationWidth('Ｆｕｌｌ letters stay：', undefined)).toBe('Ｆｕｌｌ letters stay:');
  });

  it('keeps East Asian text fullwidth, and follows an explicit choice either way', () => {
    expect(punctuationWidth('你好, 世界!', null)).toBe('你好， 世界！');
    expect(punctuationWidth('a, b (c)', true)).toBe('a， b （c）');
    expect(punctuationWidth('你好，世界！', false)).toBe('你好,世界!');
    // A word alone takes the form its line suits.
    expect(punctuationWidth('，', null, '中文 ， more')).toBe('，');
    expect(punctuationWidth('（x）', null, 'call （x） now')).toBe('(x)');
  });
});
