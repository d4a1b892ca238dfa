import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

/**
 * Test support: pictures of molecules drawn by Open Babel from a SMILES (a renderer Folio's
 * acceptance rule was not tuned on: models/eval/chem uses it as one of two held-out renderers),
 * and a crafted drawing that keeps OSRA busy for many seconds.
 */

const run = promisify(execFile);

/** Open Babel's drawing of `smiles`, `px` pixels square, as PNG. */
export async function moleculePng(smiles: string, px = 400): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-molecule-'));
  try {
    await run('obabel', [`-:${smiles}`, '-opng', '-xp', String(px), '-O', join(dir, 'm.png')]);
    return await readFile(join(dir, 'm.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A 2400 px square full of short strokes at bond angles with atom labels between them: OSRA
 * tries to assemble thousands of candidate molecules from it (about 18 s of one core here).
 */
export async function osraHostilePng(): Promise<Buffer> {
  let seed = 1;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const size = 2400;
  let body = '';
  for (let i = 0; i < 3000; i++) {
    const [x, y, a, l] = [rnd() * size, rnd() * size, (Math.floor(rnd() * 6) * Math.PI) / 3, 20 + rnd() * 30];
    body += `<line x1="${x.toFixed(1)}" y1="${y.toFixed(1)}" x2="${(x + l * Math.cos(a)).toFixed(1)}" y2="${(y + l * Math.sin(a)).toFixed(1)}"/>`;
  }
  for (let i = 0; i < 600; i++)
    body += `<text x="${(rnd() * size).toFixed(1)}" y="${(rnd() * size).toFixed(1)}" font-size="20" stroke="none" fill="black">${['O', 'N', 'OH', 'Cl', 'NH2'][i % 5]}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="white"/><g stroke="black" stroke-width="2">${body}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * A geometry figure drawn at 150 dpi: a triangle with a median, its vertices lettered A, B, C.
 * OSRA reads its letters as short bonds, and the image enlarged three times as a spiro ring system
 * joining those strokes to the triangle's sides.
 */
export function geometryFigurePng(): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="white"/>' +
    '<g stroke="black" stroke-width="1.6" fill="none"><polygon points="72.765,210.669 357.479,213.151 151.503,69.317"/><line x1="151.5" y1="69.3" x2="215.1" y2="211.9"/></g>' +
    '<g fill="black" stroke="none" font-family="serif" font-size="18"><text x="64.8" y="232.7">A</text><text x="349.5" y="235.2">B</text><text x="143.5" y="61.3">C</text><text x="211.1" y="262.0" font-size="16">c</text></g></svg>';
  return sharp(Buffer.from(svg), { density: (150 * 72) / 96 })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
}
