import { describe, expect, it } from 'vitest';
import { enlargement, MAX_ENLARGED_PIXELS, readOsra } from './enlarge.js';
import { acceptStructures, chooseStructures } from './structures.js';
import { moleculePng } from '../../test/support/chemistry-images.js';

const reading = (bondLengthPx: number, score = 2) => ({ smiles: 'CCO', score, bondLengthPx, box: { x: 0, y: 0, width: 50, height: 50 } });

describe('enlarging small drawings before OSRA', () => {
  it('enlarges by the best reading so its bonds come out near 60 px, within the factor and pixel caps', () => {
    expect(enlargement([], 300, 300)).toBeNull(); // OSRA found nothing: not read again
    expect(enlargement([reading(45)], 300, 300)).toBeNull(); // bonds long enough
    expect(enlargement([reading(30)], 300, 300)).toBe(2);
    expect(enlargement([reading(50, 0.5), reading(20, 3)], 300, 300)).toBe(3); // the best-scoring reading decides
    expect(enlargement([reading(10)], 300, 300)).toBe(3); // at most 3 times larger
    const factor = enlargement([reading(30)], 1500, 1500)!;
    expect(factor).toBeLessThan(2);
    expect(1500 * 1500 * factor * factor).toBeLessThanOrEqual(MAX_ENLARGED_PIXELS);
    expect(enlargement([reading(30)], 2000, 2000)).toBeNull(); // too large to be worth enlarging
  });

  it('reads aspirin drawn small (160 px square) only when enlarged', async () => {
    const png = await moleculePng('CC(=O)Oc1ccccc1C(=O)O', 160);
    const { first, enlarged } = await readOsra(png);
    expect((await acceptStructures(first.structures, false, png)).map((s) => s.smiles)).not.toContain('CC(=O)Oc1ccccc1C(=O)O');
    expect(enlarged?.factor).toBeGreaterThan(1.5);
    // Lengths and boxes come back in the small image's pixels.
    for (const s of enlarged!.run.structures) expect(s.box.x + s.box.width).toBeLessThanOrEqual(161);
    const structures = await chooseStructures(first.structures, enlarged!.run.structures, false, png);
    expect(structures.map((s) => s.smiles)).toEqual(['CC(=O)Oc1ccccc1C(=O)O']);
  });

  it('reads again only a first reading the caller finds worth it (a document figure: one that could cover its ink)', async () => {
    const png = await moleculePng('CC(=O)Oc1ccccc1C(=O)O', 160);
    const seen: number[] = [];
    const { first, enlarged } = await readOsra(png, { enlargeIf: (found) => (seen.push(found.length), false) });
    expect(seen).toEqual([first.structures.length]);
    expect(first.structures.length).toBeGreaterThan(0);
    expect(enlarged).toBeUndefined();
  });

  it('shares one CPU allowance between the two runs: none left, no second run', async () => {
    const { first, enlarged } = await readOsra(await moleculePng('CC(=O)Oc1ccccc1C(=O)O', 160), { cpuSeconds: 1 });
    expect(first.stopped).toBeUndefined();
    expect(first.cpuSpent).toBeGreaterThan(0);
    expect(enlarged).toBeUndefined();
  });
});
