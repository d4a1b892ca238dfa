import { describe, expect, it } from 'vitest';
import { latinReadDoubtful, lineDirection, turnsToTry, UPRIGHT_MIN_SCORE } from './orientation.js';

const box = (width: number, height: number) => ({ x: 0, y: 0, width, height });

describe('page orientation evidence', () => {
  it('tells which way the lines run from elongated boxes alone; glyph-sized boxes say nothing', () => {
    expect(lineDirection([box(560, 24), box(540, 21), box(50, 40), box(15, 22)])).toBe('across');
    expect(lineDirection([box(24, 560), box(21, 540), box(40, 50), box(22, 15)])).toBe('down');
    expect(lineDirection([box(13, 14), box(31, 25), box(22, 15)])).toBe('unknown');
    expect(lineDirection([box(300, 20), box(20, 300)])).toBe('unknown');
  });

  it('turns a page whose lines run down whatever its upright read scored, and never tries a quarter turn on lines that run across', () => {
    const sideways = [box(24, 560), box(21, 540), box(19, 357)];
    expect(turnsToTry(sideways, 0.99)).toEqual({ turns: [90, -90], uprightStays: false });
    const across = [box(560, 24), box(540, 21)];
    expect(turnsToTry(across, UPRIGHT_MIN_SCORE)).toEqual({ turns: [], uprightStays: true });
    expect(turnsToTry(across, 0.5)).toEqual({ turns: [180], uprightStays: true });
    expect(turnsToTry([box(13, 14), box(22, 15)], 0.5)).toEqual({ turns: [90, -90, 180], uprightStays: true });
    expect(turnsToTry([], 0)).toEqual({ turns: [], uprightStays: true });
  });

  it('sends a Latin read of a sample line to the whole recogniser when it is unsure or reads too few characters for the line', () => {
    const line = box(600, 30); // 20 ems
    expect(latinReadDoubtful({ text: 'The engine reads the largest lines first, then the rest.', confidence: 0.97 }, line)).toBe(false);
    // a line of Han read with the Latin classes: a stray mark, surely
    expect(latinReadDoubtful({ text: ',', confidence: 0.95 }, line)).toBe(true);
    expect(latinReadDoubtful({ text: '', confidence: 0 }, line)).toBe(true);
    // an upside-down line: many characters, none sure
    expect(latinReadDoubtful({ text: 'sa! ‘lsaɪ auı uaɥɪ ‘ʇsɹɪɟ sauıl ʇsa', confidence: 0.55 }, line)).toBe(true);
  });
});
