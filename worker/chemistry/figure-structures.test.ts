import { describe, expect, it } from 'vitest';
import { barChartPng } from '../../test/support/figure-fixtures.js';
import { figureStructures, structuresMmd } from './figure-structures.js';
import { moleculePng } from '../../test/support/chemistry-images.js';

describe('figureStructures (document figures)', () => {
  it('reads a figure that is a structure diagram, and writes it as smiles or as the crop with the SMILES as alt text', async () => {
    const structures = await figureStructures(await moleculePng('OC(=O)c1ccccc1O'), { smiles: true, inchi: true });
    expect(structures.map((s) => s.smiles)).toEqual(['OC(=O)c1ccccc1O']);
    expect(structuresMmd(structures, { smiles: true, inchi: true }, 'crop.jpg')).toMatch(
      /^<smiles inchi="InChI=1S\/C7H6O3\/[^"]+" inchikey="YGSDEFSMJLZEOE-UHFFFAOYSA-N">OC\(=O\)c1ccccc1O<\/smiles>$/,
    );
    expect(structuresMmd(structures, { smiles: true, asImage: true }, 'crop.jpg')).toBe('![OC(=O)c1ccccc1O](crop.jpg)');
  });

  it('leaves a filled chart a figure', async () => {
    expect(await figureStructures(await barChartPng(), { smiles: true })).toEqual([]);
  });
});
