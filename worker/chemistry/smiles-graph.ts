/**
 * A SMILES string as a graph: its atoms (by the token that wrote each), their bonds with order and
 * the token that wrote the bond. Enough for rules that look at a reading's shape (nitro.ts,
 * structures.ts); Open Babel remains the judge of whether a SMILES is valid.
 */

export interface SmilesAtom {
  token: number;
  symbol: string;
  /** Hydrogens written in a bracket atom. */
  bracketH: number;
  neighbours: { atom: number; order: number; bondToken: number | null }[];
}

const TOKEN = /\[[^\]]+\]|Br|Cl|[BCNOPSFI]|[bcnops]|\*|%\d\d|\d|[=#$:/\\.-]|\(|\)/g;
const ORDER: Record<string, number> = { '-': 1, '/': 1, '\\': 1, ':': 1, '=': 2, '#': 3, $: 4 };

/** The graph of `smiles`, or null when it does not tokenise or leaves a ring or branch open. */
export function parseSmiles(smiles: string): { tokens: string[]; atoms: SmilesAtom[] } | null {
  const tokens = smiles.match(TOKEN) ?? [];
  if (tokens.join('') !== smiles) return null;
  const atoms: SmilesAtom[] = [];
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

/**
 * The four-membered rings of a graph: chordless cycles a-b-c-d, each counted once. A drawing's
 * rectangles (bars, boxes) come out of OSRA as these.
 */
export function fourMemberedRings(atoms: SmilesAtom[]): number {
  const bonded = (a: number, b: number) => atoms[a]!.neighbours.some((n) => n.atom === b);
  let cycles = 0;
  for (const [a, atom] of atoms.entries())
    for (const { atom: b } of atom.neighbours)
      for (const { atom: c } of atoms[b]!.neighbours)
        for (const { atom: d } of atoms[c]!.neighbours) if (a !== c && b !== d && d !== a && bonded(d, a) && !bonded(a, c) && !bonded(b, d)) cycles++;
  return cycles / 8; // each ring is walked from each of its 4 atoms in 2 directions
}
