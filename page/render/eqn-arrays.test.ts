import { describe, expect, it } from 'vitest';
import { arraySpelling, idiomaticSpelling } from './eqn-arrays.js';
import { styleLatex } from './mmd.js';

describe('the array spelling of multi-row formulas (4.2 rule 6)', () => {
  const aligned = String.raw`\begin{aligned}f(x)&=(x+1)^2-1\\&=x^2+2x\end{aligned}`;
  const gathered = String.raw`\begin{gathered}a=1\\b=2\end{gathered}`;
  const cases = String.raw`|x|=\begin{cases}x&x>0\\-x&x\leq0\end{cases}`;

  it('writes aligned as a right-left array, one column a side of each &, and gathered as one centred column', () => {
    expect(arraySpelling(aligned)).toBe(String.raw`\begin{array}{rl}f(x)&=(x+1)^2-1\\&=x^2+2x\end{array}`);
    expect(arraySpelling(String.raw`\begin{aligned}a&=b&c&=d\\{x&y}&=z\end{aligned}`)).toMatch(/^\\begin\{array\}\{rlrl\}/);
    expect(arraySpelling(gathered)).toBe(String.raw`\begin{array}{c}a=1\\b=2\end{array}`);
    expect(arraySpelling(cases)).toBe(String.raw`|x|=\left\{\begin{array}{ll}x&x>0\\-x&x\leq0\end{array}\right.`);
  });

  it('rewrites nested environments from the inside out, and reads every array it writes back', () => {
    const nested = String.raw`\begin{aligned}f&=\begin{cases}1&x\\0&y\end{cases}\\g&=0\end{aligned}`;
    expect(arraySpelling(nested)).not.toMatch(/aligned|cases/);
    for (const latex of [aligned, gathered, cases, nested]) expect(idiomaticSpelling(arraySpelling(latex))).toBe(latex);
  });

  it('is what styleLatex returns unless idiomatic_eqn_arrays or include_equation_tags is set', () => {
    expect(styleLatex(aligned, {})).toContain('\\begin{array}{rl}');
    expect(styleLatex(aligned, { idiomatic_eqn_arrays: true })).toContain('\\begin{aligned}');
    expect(styleLatex(gathered, { include_equation_tags: true })).toContain('\\begin{gathered}');
  });
});
