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

interface Atom {
  token: number;
  symbol: string;
  /** Hydrogens written in a bracket atom. */
  bracketH: number;
  neighbours: { atom: number; order: number; bondToken: number | null }[];
}

const TOKEN = /\[[^\]]+\]|Br|Cl|[BCNOPSFI]|[bcnops]|\*|%\d\d|\d|[=#$:/\\.-]|\(|\)/g;
const ORDER: Record<string, number> = { '-': 1, '/': 1, '\\': 1, ':': 1, '=': 2, '#': 3, $: 4 };

function parse(smiles: string): { tokens: string[]; atoms: Atom[] } | null {
  const tokens = smiles.match(TOKEN) ?? [];
  if (tokens.join('') !== smiles) return null;
  const atoms: Atom[] = [];
  const branches: number[] = [];
  const rings = new Map<string, { atom: number; order: number | null; bondToken: number | null }>();
  let previous: number | null = null;
  let bond: { order: number; token: number } | null = null;
  const link = (a: number, b: number, order: number, bondToken: number | null) => {
    atoms[a]!.neighbours.push({ atom: b, order, bondToken });
    atoms[b]!.neighbours.push({ atom: a, order, bondToken });
  };
  for (const [i, t] of tokens.entries()) {
    if (t === '(') branches.push(previous ?? -1);
    else if (t === ')') previous = branches.pop() ?? null;
    else if (t === '.') previous = null;
    else if (t in ORDER) bond = { order: ORDER[t]!, token: i };
    else if (/^(%\d\d|\d)$/.test(t)) {
      if (previous === null) return null;
      const open = rings.get(t);
      if (open) {
        link(open.atom, previous, bond?.order ?? open.order ?? 1, bond?.token ?? open.bondToken);
        rings.delete(t);
      } else rings.set(t, { atom: previous, order: bond?.order ?? null, bondToken: bond?.token ?? null });
      bond = null;
    } else {
      const inner = t.startsWith('[') ? t.slice(1, -1) : t;
      const symbol = /^\d*([A-Z][a-z]?|[a-z]{1,2}|\*)/.exec(inner)?.[1] ?? '';
      const h = t.startsWith('[') ? /H(\d*)/.exec(inner.replace(/^\d*[A-Z][a-z]?/, '')) : null;
      atoms.push({ token: i, symbol, bracketH: h ? Number(h[1] || 1) : 0, neighbours: [] });
      const current = atoms.length - 1;
      if (previous !== null && previous >= 0) link(previous, current, bond?.order ?? 1, bond?.token ?? null);
      previous = current;
      bond = null;
    }
  }
  return rings.size || branches.length ? null : { tokens, atoms };
}

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
