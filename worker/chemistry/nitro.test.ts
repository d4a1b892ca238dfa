import { describe, expect, it } from 'vitest';
import { normalizeNitro } from './nitro.js';
import { acceptStructures } from './structures.js';

const reading = (smiles: string) => ({ smiles, score: 2, bondLengthPx: 40, box: { x: 0, y: 0, width: 150, height: 150 } });

describe('nitro groups written one way', () => {
  it('writes pentavalent and charge-dropped nitro groups charge-separated', () => {
    expect(normalizeNitro('c1ccccc1N(=O)=O')).toBe('c1ccccc1[N+](=O)[O-]');
    expect(normalizeNitro('O=N(=O)c1ccccc1')).toBe('O=[N+]([O-])c1ccccc1');
    expect(normalizeNitro('Cc1ccc(cc1)[N](=O)O')).toBe('Cc1ccc(cc1)[N+](=O)[O-]'); // both charges missed
    expect(normalizeNitro('O[N+](=O)c1ccccc1')).toBe('[O-][N+](=O)c1ccccc1'); // the minus missed
    expect(normalizeNitro('CC([N+](=O)O)([N+](=O)O)C')).toBe('CC([N+](=O)[O-])([N+](=O)[O-])C');
  });

  it('leaves what is no nitro group alone', () => {
    for (const s of ['[O-][N+](=O)c1ccccc1', 'CON=O', 'CC(=O)O', 'C[N+](C)(C)[O-]', 'C1CC[N+]1(=O)O', 'c1ccccc1[N+](=O)C', 'c1cc[n+]([O-])cc1', 'xyz('])
      expect(normalizeNitro(s)).toBe(s);
  });

  it('gives the drawn nitrobenzene whichever way OSRA wrote it', async () => {
    const [a, b] = await Promise.all([acceptStructures([reading('c1ccccc1N(=O)=O')]), acceptStructures([reading('c1ccccc1[N](=O)O')])]);
    expect(a.map((s) => s.smiles)).toEqual(['[O-][N+](=O)c1ccccc1']);
    expect(b.map((s) => s.smiles)).toEqual(['[O-][N+](=O)c1ccccc1']);
  });
});
