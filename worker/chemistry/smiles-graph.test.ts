import { describe, expect, it } from 'vitest';
import { fourMemberedRings, parseSmiles } from './smiles-graph.js';

const rings = (smiles: string) => fourMemberedRings(parseSmiles(smiles)!.atoms);

describe('SMILES graph', () => {
  it('links ring closures and branches', () => {
    const graph = parseSmiles('CC(=O)C1CC1')!;
    expect(graph.atoms.map((a) => a.neighbours.length)).toEqual([1, 3, 1, 3, 2, 2]);
    expect(graph.atoms[2]!.neighbours[0]!.order).toBe(2);
    expect(parseSmiles('C1CC')).toBeNull();
  });

  it('counts four-membered rings once each, not the larger cycles around them', () => {
    expect(rings('C1CCC1')).toBe(1);
    expect(rings('C1CCCCC1')).toBe(0);
    expect(rings('C1CC2CCC12')).toBe(2); // bicyclo[2.2.0]hexane: two squares, the hexagon around them is not one
    expect(rings('C12C3C4C1C5C2C3C45')).toBe(6); // cubane
    expect(rings('CCC1(C)CCC1(C)C1(C)CCC1C')).toBe(2);
  });
});
