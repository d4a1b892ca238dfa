import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depictStructures } from './depict.js';

describe('depictStructures (conversions)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-depict-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('puts a drawing of each molecule before its element and keeps the element', async () => {
    const mmd = 'Aspirin:\n\n<smiles inchi="InChI=1S/x">CC(=O)Oc1ccccc1C(=O)O</smiles>\n\nand ethanol <smiles>CCO</smiles>.';
    const out = await depictStructures(mmd, dir);
    expect(out.names).toEqual(['smiles-1', 'smiles-2']);
    expect(out.mmd).toBe(
      'Aspirin:\n\n![CC(=O)Oc1ccccc1C(=O)O](images/smiles-1.jpg)\n\n<smiles inchi="InChI=1S/x">CC(=O)Oc1ccccc1C(=O)O</smiles>\n\nand ethanol ![CCO](images/smiles-2.jpg)\n\n<smiles>CCO</smiles>.',
    );
    const meta = await sharp(await readFile(join(dir, 'images/smiles-1.jpg'))).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeGreaterThan(100);
  });

  it('leaves MMD without structures alone', async () => {
    expect(await depictStructures('no chemistry here', dir)).toEqual({ mmd: 'no chemistry here', names: [] });
  });
});
