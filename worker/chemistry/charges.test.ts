import { describe, expect, it } from 'vitest';
import { restoreMissedCharges } from './charges.js';
import { acceptStructures } from './structures.js';

const reading = (smiles: string) => ({ smiles, score: 2, bondLengthPx: 40, box: { x: 0, y: 0, width: 150, height: 150 } });

describe('charges OSRA missed', () => {
  it('charges four-bonded nitrogen and three-bonded oxygen', () => {
    expect(restoreMissedCharges('CC[N]1=c2ccccc2=CC=C1C')).toBe('CC[N+]1=c2ccccc2=CC=C1C'); // an N-ethylquinolinium
    expect(restoreMissedCharges('CN(C)(C)C')).toBe('C[N+](C)(C)C');
    expect(restoreMissedCharges('CC1=CC(C)=[O]C(C)=C1')).toBe('CC1=CC(C)=[O+]C(C)=C1');
  });

  it('leaves neutral, already charged, hydrogen-bearing and aromatic atoms alone', () => {
    for (const s of ['CN(C)C', 'C[N+](C)(C)C', 'C[NH+](C)C', 'C=[N+]=[N-]', 'Cn1cccc1', 'c1cc[n+](C)cc1', 'COC', 'CC(=O)O', 'xyz('])
      expect(restoreMissedCharges(s)).toBe(s);
  });

  it('gives the drawn quinolinium and tetrazolium as their cations', async () => {
    const found = await acceptStructures([reading('CC[N]1=c2ccccc2=CC=C1C'), reading('c1ccc(cc1)C1=NN(c2ccccc2)[N](=N1)c1ccccc1')]);
    expect(found.map((s) => s.smiles)).toEqual(['CC[n+]1c(C)ccc2c1cccc2', 'c1ccc(cc1)c1nn([n+](n1)c1ccccc1)c1ccccc1']);
  });
});
