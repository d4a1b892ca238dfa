import { describe, expect, it } from 'vitest';
import { BULLET_MARKER } from '../blocks-model.js';
import { ListLevels, listMarker } from './lists.js';

describe('lists', () => {
  it('marks bulleted and numbered lines, not a numbered section heading in capitals', () => {
    expect(listMarker('• Bread', true)).toBe(BULLET_MARKER);
    expect(listMarker('2) Two litres of milk', false)).toBe('2. ');
    expect(listMarker('1. INTRODUCTION', false)).toBeUndefined();
    expect(listMarker('3. FFT of a signal', false)).toBe('3. ');
    expect(listMarker('2010. The year', false)).toBeUndefined();
  });

  it('nests items by indent, half a unit being no step', () => {
    const levels = new ListLevels();
    expect([0, 20, 22, 41, 1].map((x, i) => levels.depth(x, 10, i > 0))).toEqual([0, 1, 1, 2, 0]);
    expect(levels.depth(40, 10, false)).toBe(0);
  });
});
