import { describe, expect, it } from 'vitest';
import { canonicalize } from './open-babel.js';
import { parseOsraOutput, runOsra } from './osra.js';
import { heavyAtoms, plausibleStructure, readStructures, structureConfidence } from './structures.js';
import { moleculePng, osraHostilePng } from '../../test/support/chemistry-images.js';

const reading = (smiles: string, score = 2, bondLengthPx = 40) => ({ smiles, score, bondLengthPx, box: { x: 0, y: 0, width: 70, height: 70 } });

describe('OSRA output and the acceptance rule', () => {
  it('parses OSRA lines with bond length, score and box', () => {
    expect(parseOsraOutput('CC(=O)O 61.2 3.02 26x60-358x349\nnoise\n')).toEqual([
      { smiles: 'CC(=O)O', bondLengthPx: 61.2, score: 3.02, box: { x: 26, y: 60, width: 332, height: 289 } },
    ]);
  });

  it('counts heavy atoms in and out of brackets, two-letter halogens once', () => {
    expect(heavyAtoms('Clc1ccc([N+](=O)[O-])cc1Br')).toEqual(['Cl', 'c', 'c', 'c', 'c', 'N', 'O', 'O', 'c', 'c', 'Br']);
    expect(heavyAtoms('[2H]C([H])O')).toEqual(['C', 'O']);
  });

  it('accepts molecules and refuses what axes, polygons and noise give', () => {
    expect(plausibleStructure(reading('CC(=O)Oc1ccccc1C(=O)O'))).toBe(true);
    expect(plausibleStructure(reading('C1CCCCC1'))).toBe(true);
    expect(plausibleStructure(reading('CCCCCC'))).toBe(false); // a zig-zag: a carbon chain without ring or heteroatom
    expect(plausibleStructure(reading('C1CC1'))).toBe(false); // a triangle
    expect(plausibleStructure(reading('CC*CO'))).toBe(false); // a label OSRA could not name
    expect(plausibleStructure(reading('CC(=O)O', -0.4))).toBe(false); // OSRA's own score says noise
    expect(plausibleStructure(reading('CC(=O)O', 2, 3))).toBe(false); // bonds of 3 px are specks
    // A bar chart's bars: OSRA's reading of gnuplot-like bars at 300 dpi, a carbon chain of cyclobutanes.
    expect(plausibleStructure(reading('CCC1(C)CCC1(C)C1(C)CCC1(C)C1(C)CCC1C', 1.2, 157))).toBe(false);
    expect(plausibleStructure(reading('C1CC2CCC2C1'))).toBe(true); // one four-membered ring, carbon only
    expect(plausibleStructure(reading('O=C1NC2C1C1CNC21'))).toBe(true); // two, with heteroatoms
    expect(plausibleStructure({ ...reading('c1ccccc1', 2, 35), box: { x: 0, y: 0, width: 218, height: 53 } })).toBe(false); // wider than six atoms reach
  });

  it('maps OSRA scores onto [0,1]', () => {
    expect(structureConfidence(-1)).toBe(0);
    expect(structureConfidence(10)).toBe(1);
    expect(structureConfidence(2)).toBeGreaterThan(structureConfidence(1));
  });
});

describe('Open Babel', () => {
  it('canonicalises a SMILES and derives the standard InChI and InChIKey', async () => {
    expect(await canonicalize('OC(=O)c1ccccc1OC(C)=O')).toEqual({
      smiles: 'CC(=O)Oc1ccccc1C(=O)O',
      inchi: 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
      inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N',
    });
  });

  it('refuses what is not a SMILES', async () => {
    expect(await canonicalize('xyz(')).toBeNull();
    expect(await canonicalize('C*C')).toBeNull();
    expect(await canonicalize('')).toBeNull();
  });
});

describe('readStructures', () => {
  it('reads a drawn molecule as its canonical SMILES, with InChI when asked', async () => {
    const { structures, stopped } = await readStructures(await moleculePng('CN1C=NC2=C1C(=O)N(C(=O)N2C)C'), { inchi: true });
    expect(stopped).toBeUndefined();
    expect(structures).toHaveLength(1);
    expect(structures[0]).toMatchObject({ smiles: 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', inchikey: 'RYYVLZVUVIJVGH-UHFFFAOYSA-N' });
    expect(structures[0]!.confidence).toBeGreaterThan(0.5);
  });

  it('stops OSRA at its CPU-time limit on a crafted image', async () => {
    const run = await runOsra(await osraHostilePng(), { cpuSeconds: 1 });
    expect(run.stopped).toBe('timeout');
  });

  it('stops OSRA at its memory limit', async () => {
    const run = await runOsra(await moleculePng('CCO'), { memoryBytes: 64 * 1024 * 1024 });
    expect(run.stopped).toBe('failed');
  });
});
