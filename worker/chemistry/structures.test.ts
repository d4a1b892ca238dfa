import { describe, expect, it } from 'vitest';
import { canonicalize } from './open-babel.js';
import { parseOsraSdf, runOsra } from './osra.js';
import { readOsra } from './enlarge.js';
import { chooseStructures, heavyAtoms, MIN_OSRA_SCORE, plausibleStructure, readStructures, structureConfidence } from './structures.js';
import { geometryFigurePng, moleculePng, osraHostilePng } from '../../test/support/chemistry-images.js';

const reading = (smiles: string, score = 2, bondLengthPx = 40) => ({ smiles, score, bondLengthPx, box: { x: 0, y: 0, width: 70, height: 70 } });

describe('OSRA output and the acceptance rule', () => {
  it("parses OSRA's SD records: SMILES, bond length, score, box and each bond's length over the median", () => {
    const record = (atoms: string[], bonds: string[], fields: string) =>
      [
        '',
        ' OpenBabel11282600592D',
        '',
        `${String(atoms.length).padStart(3)}${String(bonds.length).padStart(3)}  0  0  0  0  0  0  0  0999 V2000`,
        ...atoms,
        ...bonds,
        'M  END',
        fields,
        '$$$$',
        '',
      ].join('\n');
    const atom = (x: number, y: number, el: string) =>
      `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}    0.0000 ${el}   0  0  0  0  0  0  0  0  0  0  0  0`;
    const bond = (a: number, b: number, order = 1) => `${String(a).padStart(3)}${String(b).padStart(3)}${String(order).padStart(3)}  0  0  0  0`;
    // Acetic acid drawn with even bonds; then a reading with bonds of 0.2 and 3 units (letters and a triangle's side).
    const acetic = record(
      [atom(0, 0, 'C'), atom(1, 0, 'C'), atom(1.5, 0.87, 'O'), atom(1.5, -0.87, 'O')],
      [bond(1, 2), bond(2, 3, 2), bond(2, 4)],
      '>  <Confidence_estimate>\n3.02\n\n>  <Average_bond_length>\n61.2\n\n>  <Surrounding_box>\n26x60-358x349\n\n>  <smi>\nCC(=O)O\n',
    );
    const uneven = record(
      [atom(0, 0, 'C'), atom(0.2, 0, 'N'), atom(0, 3, 'C')],
      [bond(1, 2), bond(2, 3), bond(1, 3)],
      '>  <Confidence_estimate>\n0.77\n\n>  <Average_bond_length>\n40\n\n>  <Surrounding_box>\n0x0-100x100\n\n>  <smi>\nC1NC1\n',
    );
    expect(parseOsraSdf(`${acetic}${uneven}noise\n`)).toEqual([
      { smiles: 'CC(=O)O', bondLengthPx: 61.2, score: 3.02, box: { x: 26, y: 60, width: 332, height: 289 }, bondLengths: [1, 1, 1] },
      { smiles: 'C1NC1', bondLengthPx: 40, score: 0.77, box: { x: 0, y: 0, width: 100, height: 100 }, bondLengths: [0.07, 1, 1] },
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
    // Bonds of one drawing are of one length (labels' atoms placed by OSRA at unit bonds included); a reading joining a letter's strokes to a triangle's sides is not.
    expect(plausibleStructure({ ...reading('O(c1c(C(=O)O)cccc1)CCCCCCCCCCC'), bondLengths: [0.94, 1, 1, 1, 1.47, 1.51, 1.63] })).toBe(true);
    expect(plausibleStructure({ ...reading('C12(CCN1)CC2'), bondLengths: [0.1, 0.22, 0.99, 1, 6.28, 9.99, 15.51, 17.56] })).toBe(false);
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

  it('keeps a geometry figure a figure: its enlarged reading, scored as a molecule by OSRA, joins bonds of every length', async () => {
    const png = await geometryFigurePng();
    const { first, enlarged } = await readOsra(png);
    expect(enlarged?.run.structures.some((s) => s.score >= MIN_OSRA_SCORE && /N/.test(s.smiles))).toBe(true);
    expect(await chooseStructures(first.structures, enlarged?.run.structures, false, png)).toEqual([]);
  }, 60_000);

  it('stops OSRA at its CPU-time limit on a crafted image', async () => {
    const run = await runOsra(await osraHostilePng(), { cpuSeconds: 1 });
    expect(run.stopped).toBe('timeout');
  });

  it('stops OSRA at its memory limit', async () => {
    const run = await runOsra(await moleculePng('CCO'), { memoryBytes: 64 * 1024 * 1024 });
    expect(run.stopped).toBe('failed');
  });
});
