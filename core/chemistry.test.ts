import { describe, expect, it } from 'vitest';
import { SMILES_ELEMENT, smilesElement, smilesImage } from './chemistry.js';

describe('smiles elements', () => {
  const aspirin = {
    smiles: 'CC(=O)Oc1ccccc1C(=O)O',
    inchi: 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
    inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N',
  };

  it('writes the SMILES alone unless InChI is asked for, then as attributes', () => {
    expect(smilesElement(aspirin)).toBe('<smiles>CC(=O)Oc1ccccc1C(=O)O</smiles>');
    expect(smilesElement(aspirin, true)).toBe(`<smiles inchi="${aspirin.inchi}" inchikey="${aspirin.inchikey}">CC(=O)Oc1ccccc1C(=O)O</smiles>`);
  });

  it('writes the crop with the SMILES as alt text for include_chemistry_as_image', () => {
    expect(smilesImage({ smiles: 'C[C@H](N)C(=O)O' }, 'https://cdn/x.jpg')).toBe('![C[C@H](N)C(=O)O](https://cdn/x.jpg)');
  });

  it('finds elements with and without attributes, and nothing else', () => {
    const mmd = `a <smiles>CCO</smiles> b ${smilesElement(aspirin, true)} <smile>x</smile>`;
    expect([...mmd.matchAll(SMILES_ELEMENT)].map((m) => m[1])).toEqual(['CCO', aspirin.smiles]);
  });
});
