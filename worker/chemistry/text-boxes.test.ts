import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { acceptStructures, enclosesText } from './structures.js';
import { moleculePng } from '../../test/support/chemistry-images.js';
import { textBoxes } from './text-boxes.js';

/** A vertical flow chart: words in boxes and an ellipse, joined by arrows (the shape OSRA reads as rings). */
async function flowChartPng(): Promise<Buffer> {
  const steps = ['Weigh', 'Dissolve', 'Filter'];
  let body = '<ellipse cx="100" cy="30" rx="60" ry="20"/><text x="100" y="36" stroke="none" fill="black" text-anchor="middle">Start</text>';
  for (const [i, word] of steps.entries()) {
    const y = 80 + i * 70;
    body += `<line x1="100" y1="${y - 30}" x2="100" y2="${y}"/><rect x="50" y="${y}" width="100" height="40"/>`;
    body += `<text x="100" y="${y + 26}" stroke="none" fill="black" text-anchor="middle">${word}</text>`;
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300" font-family="serif" font-size="16"><rect width="200" height="300" fill="white"/><g stroke="black" stroke-width="1.5" fill="none">${body}</g></svg>`;
  return sharp(Buffer.from(svg), { density: 150 }).png().toBuffer();
}

describe('text boxes (closed outlines around writing)', () => {
  it('finds the boxes and the ellipse of a flow chart', async () => {
    const boxes = await textBoxes(await flowChartPng());
    expect(boxes).toHaveLength(4);
    expect(enclosesText({ x: 0, y: 0, width: 420, height: 630 }, boxes)).toBe(true);
    // One box OSRA reads as a ring fills the reading's box.
    const [first] = boxes.sort((a, b) => a.y - b.y);
    expect(enclosesText({ x: first!.x - 5, y: first!.y - 5, width: first!.width + 10, height: first!.height + 10 }, boxes)).toBe(true);
    // Letters of a word inside a box read as bonds.
    expect(enclosesText({ x: first!.x + 20, y: first!.y + 5, width: 30, height: 20 }, boxes)).toBe(true);
    expect(enclosesText({ x: 500, y: 0, width: 100, height: 100 }, boxes)).toBe(false);
  });

  it('finds none in drawn molecules: rings with double bonds, fused and bridged rings, labels at ring atoms', async () => {
    for (const smiles of ['c1ccc2ccccc2c1', 'CC1(C)C2CCC1(C)C(=O)C2', 'OC(=O)c1ccncc1O', 'C1CC2CCC1C2'])
      expect(await textBoxes(await moleculePng(smiles, 500)), smiles).toEqual([]);
  });

  it('refuses a ring reading that is a flow-chart box, and keeps the same reading over a molecule', async () => {
    const chart = await flowChartPng();
    const [box] = (await textBoxes(chart)).sort((a, b) => b.y - a.y);
    const reading = { smiles: 'CC1CCCC1', score: 2.5, bondLengthPx: 70, box: { x: box!.x - 4, y: box!.y - 4, width: box!.width + 8, height: box!.height + 8 } };
    expect(await acceptStructures([reading], false, chart)).toEqual([]);
    expect(await acceptStructures([reading], false, await moleculePng('CC1CCCC1', 250))).toHaveLength(1);
  });
});
