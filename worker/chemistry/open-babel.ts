import { execFile } from 'node:child_process';

/**
 * Open Babel (Debian's `obabel`, GPL-2.0), run as a separate program: checks a SMILES, writes its
 * canonical form, and derives the standard InChI and InChIKey, in one call.
 */

const OBABEL_TIMEOUT_MS = 5_000;

export interface CanonicalMolecule {
  smiles: string;
  inchi?: string;
  inchikey?: string;
}

/**
 * The canonical SMILES (with InChI and InChIKey when Open Babel can make them) of `smiles`, or
 * null when Open Babel cannot parse it, it holds an unknown atom (`*`), or it is empty.
 */
export function canonicalize(smiles: string): Promise<CanonicalMolecule | null> {
  if (!smiles || /\s/.test(smiles) || smiles.includes('*')) return Promise.resolve(null);
  return new Promise((resolve) => {
    // -: takes the SMILES as an argument; nothing is read from a file or the shell.
    execFile('obabel', [`-:${smiles}`, '-ocan', '--append', 'InChI InChIKey'], { timeout: OBABEL_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout) => {
      const line = String(stdout).split('\n')[0]?.trim() ?? '';
      if (error || !line) return resolve(null);
      const [can, rest = ''] = line.split('\t');
      const [inchi, inchikey] = rest.trim().split(/\s+/);
      resolve({
        smiles: can!,
        ...(inchi?.startsWith('InChI=') ? { inchi } : {}),
        ...(inchikey && /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(inchikey) ? { inchikey } : {}),
      });
    });
  });
}
