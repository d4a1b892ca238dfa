import { type SmilesAtom as Atom, parseSmiles as parse } from './smiles-graph.js';

/**
 * Nitro groups as chemists draw them, whatever charges OSRA read. A nitro group is drawn N⁺ with
 * =O and O⁻, or pentavalent N(=O)=O; the superscript charges are a few pixels, and OSRA often
 * misses one or both (`[N](=O)O`, `[N+](=O)O`, `[O-][N](=O)`): SMILES whose nitrogen has four
 * bonds and no charge, or an OH on a cationic nitrogen, neither of which a drawing of a real
 * compound shows. Every nitrogen bonded to two terminal oxygens, one of them by a double bond, and
 * to one other atom is written charge-separated, `[N+](=O)[O-]` (the form RDKit, PubChem and
 * standard InChI agree on), so both drawings and every misread charge give the same SMILES.
 * The SMILES is edited token by token in place: its ring closures and branches stay as they were.
 */

/** `smiles` with each nitro (and nitrate) group written `[N+](=O)[O-]`; unchanged when it has none or cannot be parsed. */
export function normalizeNitro(smiles: string): string {
  const parsed = parse(smiles);
  if (!parsed) return smiles;
  const { tokens, atoms } = parsed;
  let changed = false;
  for (const n of atoms) {
    if (n.symbol !== 'N' || n.bracketH || n.neighbours.length !== 3) continue;
    const terminalO = (o: Atom) => o.symbol === 'O' && o.neighbours.length === 1 && !o.bracketH && !tokens[o.token]!.includes('+');
    const oxygens = n.neighbours.filter((b) => terminalO(atoms[b.atom]!));
    const orders = oxygens.map((b) => b.order).sort();
    if (oxygens.length !== 2 || !(orders.join() === '1,2' || orders.join() === '2,2')) continue;
    // The oxygen written singly bonded (or, for N(=O)=O, the second) becomes O-.
    const minus = oxygens.find((b) => b.order === 1) ?? oxygens[1]!;
    if (minus.order === 2 && minus.bondToken !== null) tokens[minus.bondToken] = '';
    tokens[atoms[minus.atom]!.token] = '[O-]';
    tokens[n.token] = '[N+]';
    changed = true;
  }
  return changed ? tokens.join('') : smiles;
}
