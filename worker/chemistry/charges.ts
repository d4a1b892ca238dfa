import { parseSmiles } from './smiles-graph.js';

/**
 * Charges OSRA missed on nitrogen and oxygen. A cationic nitrogen (quaternary ammonium, pyridinium,
 * tetrazolium, an N-oxide) is drawn N⁺ and an oxonium or pyrylium oxygen O⁺; the superscript sign
 * is a few pixels and OSRA often misses it, writing `[N]` or `N` with four bonds, or `O` with
 * three: no neutral compound has such an atom, so the bonds read say what the drawing showed.
 * Every uncharged, hydrogen-free N whose bond orders add up to 4, and O whose add up to 3, is
 * written `[N+]` or `[O+]`. Aromatic atoms (`n`, `o`) are left alone: their bond orders are not
 * written. The SMILES is edited token by token in place, like nitro.ts.
 */

/** Bond orders that leave an uncharged atom one electron short: the cation's valence. */
const CATION_VALENCE: Record<string, number> = { N: 4, O: 3 };

/** `smiles` with the charges its bond orders require; unchanged when it needs none or cannot be parsed. */
export function restoreMissedCharges(smiles: string): string {
  const parsed = parseSmiles(smiles);
  if (!parsed) return smiles;
  const { tokens, atoms } = parsed;
  let changed = false;
  for (const atom of atoms) {
    const valence = CATION_VALENCE[atom.symbol];
    const token = tokens[atom.token]!;
    if (valence === undefined || (token !== atom.symbol && token !== `[${atom.symbol}]`)) continue;
    if (atom.neighbours.reduce((sum, n) => sum + n.order, 0) !== valence) continue;
    tokens[atom.token] = `[${atom.symbol}+]`;
    changed = true;
  }
  return changed ? tokens.join('') : smiles;
}
