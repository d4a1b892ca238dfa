import { describe, expect, it } from 'vitest';
import { SectionNumbers, sectionNumbering } from './section-numbers.js';

describe('section numbering (4.7)', () => {
  it('removes printed numbers, keeping titles that start with a number of their own', () => {
    const s = new SectionNumbers('remove');
    expect(['2.1 Scope', '3. Results', 'IV. Discussion', 'Background', '3D Printing', '2024 Review'].map((h) => s.heading(2, [h])[0])).toEqual([
      'Scope',
      'Results',
      'Discussion',
      'Background',
      '3D Printing',
      '2024 Review',
    ]);
  });

  it('numbers headings in document order by level, over printed numbers, never the title', () => {
    const s = new SectionNumbers('auto');
    const out = [
      [1, 'A Title'],
      [2, '1 Introduction'],
      [3, 'Scope'],
      [3, '1.2 Limits'],
      [2, 'Background'],
      [3, 'Data'],
    ].map(([level, h]) => s.heading(level as number, [h as string])[0]);
    expect(out).toEqual(['A Title', '1 Introduction', '1.1 Scope', '1.2 Limits', '2 Background', '2.1 Data']);
  });

  it('numbers a title whose printed number was read as a line of its own', () => {
    expect(new SectionNumbers('remove').heading(2, ['3', 'Results'])).toEqual(['', 'Results']);
    expect(new SectionNumbers('auto').heading(2, ['3', 'Results'])).toEqual(['', '1 Results']);
  });

  it('reads the request: at most one option is true (the schema refuses more)', () => {
    expect(sectionNumbering({ auto_number_sections: true })).toBe('auto');
    expect(sectionNumbering({ remove_section_numbering: true })).toBe('remove');
    expect(sectionNumbering({})).toBeUndefined();
  });
});
