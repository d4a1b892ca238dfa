import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { SMILES_ELEMENT } from '../../core/chemistry.js';
import { relativeFigurePath } from '../../page/figure-links.js';

/**
 * Structures in conversions (DOCX, PPTX, HTML, PDF, LaTeX): a `<smiles>` element means nothing to
 * pandoc or Word, so each gets a drawing of its molecule, made by Open Babel from the SMILES
 * (`obabel -opng`), placed before it as a figure the converters embed; the element stays, and
 * every format shows its text, the SMILES. The drawing is made from the SMILES, not cut from the
 * page, so an MMD sent to /v3/converter gets it too.
 */

const DEPICT_TIMEOUT_MS = 10_000;
/** Side of the square drawing, in pixels. */
const DEPICT_PX = 360;

function depict(smiles: string, out: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('obabel', [`-:${smiles}`, '-opng', '-xp', String(DEPICT_PX), '-O', out], { timeout: DEPICT_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error) =>
      resolve(!error),
    );
  });
}

/**
 * Draws every structure of `mmd` into `dir`/images/ (as the crops are staged there, by figure
 * name `smiles-<n>`) and returns the MMD with each drawing shown before its element, and the
 * names drawn. A SMILES Open Babel cannot draw keeps its element alone.
 */
export async function depictStructures(mmd: string, dir: string): Promise<{ mmd: string; names: string[] }> {
  const elements = [...mmd.matchAll(SMILES_ELEMENT)];
  if (!elements.length) return { mmd, names: [] };
  await mkdir(join(dir, 'images'), { recursive: true });
  const names: string[] = [];
  let out = '';
  let last = 0;
  for (const m of elements) {
    const smiles = m[1]!.trim();
    const name = `smiles-${names.length + 1}`;
    const png = join(dir, 'images', `${name}.png`);
    out += mmd.slice(last, m.index);
    last = m.index! + m[0].length;
    if (smiles && !smiles.startsWith('-') && (await depict(smiles, png))) {
      await writeFile(join(dir, relativeFigurePath(name)), await sharp(png).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }).toBuffer());
      names.push(name);
      out += `![${smiles}](${relativeFigurePath(name)})\n\n`;
    }
    out += m[0];
  }
  return { mmd: out + mmd.slice(last), names };
}
