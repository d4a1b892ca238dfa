import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * OSRA's label lists, mended. OSRA reads a label's letters with its own OCR, corrects the string
 * with a spelling list (OCR string → label) and expands the label with a superatom list (label →
 * SMILES, the first atom bonded to the drawing). Debian's lists (`/usr/share/osra`) have wrong
 * and missing entries for abbreviations chemists write every day: `iPr` expands to n-propyl, the
 * OCR strings of "nPr" (`npr`, `npl`, `nPl`) are corrected to iPr, and OMe, OEt, OAc, Boc, Ts,
 * Ms, Tf, TBS, Bz, Piv, sBu, iBu, CO2H... are absent as labels. The lists OSRA is given are
 * Debian's, read from the installed package at first use, with the mends replacing or added to
 * their entries; osra.ts writes them beside each image it reads. Without the installed lists OSRA
 * runs with its own.
 */

const DEBIAN_LISTS = '/usr/share/osra';

/** Straight chains, n-pentyl to n-decyl: absent from Debian's lists. */
const CHAIN_LENGTHS: Record<string, number> = { nPent: 5, nHex: 6, nHept: 7, nOct: 8, nNon: 9, nDec: 10 };
const CHAINS = Object.fromEntries(Object.entries(CHAIN_LENGTHS).map(([label, n]) => [label, 'C'.repeat(n)]));

/** Label → SMILES whose first atom is the one bonded to the drawing; chemists' meanings. */
const SUPERATOM_MENDS: Record<string, string> = {
  iPr: 'C(C)C',
  nPr: 'CCC',
  Pr: 'CCC',
  iBu: 'CC(C)C',
  sBu: 'C(C)CC',
  Bu: 'CCCC',
  OMe: 'OC',
  OEt: 'OCC',
  OiPr: 'OC(C)C',
  OtBu: 'OC(C)(C)C',
  OAc: 'OC(=O)C',
  NMe: 'NC',
  NHMe: 'NC',
  SMe: 'SC',
  CO2H: 'C(=O)O',
  CO2tBu: 'C(=O)OC(C)(C)C',
  Boc: 'C(=O)OC(C)(C)C',
  NHBoc: 'NC(=O)OC(C)(C)C',
  BocHN: 'NC(=O)OC(C)(C)C',
  Cbz: 'C(=O)OCc1ccccc1',
  Bz: 'C(=O)c1ccccc1',
  OBz: 'OC(=O)c1ccccc1',
  Piv: 'C(=O)C(C)(C)C',
  Ts: 'S(=O)(=O)c1ccc(C)cc1',
  OTs: 'OS(=O)(=O)c1ccc(C)cc1',
  Ms: 'S(=O)(=O)C',
  OMs: 'OS(=O)(=O)C',
  Tf: 'S(=O)(=O)C(F)(F)F',
  OTf: 'OS(=O)(=O)C(F)(F)F',
  TBS: '[Si](C)(C)C(C)(C)C',
  OTBS: 'O[Si](C)(C)C(C)(C)C',
  TMS: '[Si](C)(C)C',
  ...CHAINS,
};

/**
 * Letters OSRA's OCR systematically reads as others: t as l (its lists already hold El for Et),
 * x, c and o as their capitals. A label's OCR strings are its spellings under these, and the same
 * without its last letter (a thin final t is often lost: "nPen").
 */
const OCR_CONFUSIONS: Record<string, string[]> = { t: ['t', 'l'], x: ['x', 'X'], c: ['c', 'C'], o: ['o', 'O'] };

/** The strings OSRA's OCR may read for `label` (OCR_CONFUSIONS), the label itself excluded. */
export function ocrSpellings(label: string): string[] {
  let spellings = [''];
  for (const ch of label) spellings = spellings.flatMap((s) => (OCR_CONFUSIONS[ch] ?? [ch]).map((c) => s + c));
  const all = new Set([...spellings, ...spellings.map((s) => s.slice(0, -1))]);
  all.delete(label);
  return [...all];
}

/** OCR string → label: OSRA's OCR reads n as n and i as l, so "nPr" is not iPr; the chains' misreadings. */
const SPELLING_MENDS: Record<string, string> = {
  npr: 'nPr',
  npl: 'nPr',
  nPl: 'nPr',
  ...Object.fromEntries(Object.keys(CHAINS).flatMap((label) => ocrSpellings(label).map((s) => [s, label]))),
};

/** `list` (one `key value` a line, # comments) with `mends` replacing the entries of their keys and appended. */
export function mendList(list: string, mends: Record<string, string>): string {
  const kept = list.split('\n').filter((line) => {
    const key = /^\s*([^\s#]\S*)/.exec(line)?.[1];
    return key === undefined || !(key in mends);
  });
  return [...kept, '# Folio (worker/chemistry/osra-lists.ts)', ...Object.entries(mends).map(([k, v]) => `${k} ${v}`), ''].join('\n');
}

export interface OsraLists {
  superatom: string;
  spelling: string;
}

let lists: Promise<OsraLists | null> | undefined;

/** The mended lists' text, read at first use; null when Debian's lists are not installed. */
export function osraLists(): Promise<OsraLists | null> {
  lists ??= (async () => {
    const read = (name: string) => readFile(join(DEBIAN_LISTS, `${name}.txt`), 'utf8').catch(() => null);
    const [superatom, spelling] = await Promise.all([read('superatom'), read('spelling')]);
    if (superatom === null || spelling === null) return null;
    return { superatom: mendList(superatom, SUPERATOM_MENDS), spelling: mendList(spelling, SPELLING_MENDS) };
  })();
  return lists;
}
