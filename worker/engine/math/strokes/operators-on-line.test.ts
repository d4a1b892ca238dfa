import { describe, expect, it } from 'vitest';
import type { Composer } from '../../../../models/eval/strokes-real-set.js';
import { foldOneExactReads } from '../../../../test/support/fold-reads.js';
import { datasetsPresent } from '../../../../models/training/strokes-real.js';

/**
 * Real ink of training-fold writers (fold 1, never the held-out fold 0), each writing each
 * expression three times with its own drawings: a binary operator between two full-size operands
 * is on the line (layout/baseline.ts `opensLine`), while a script keeps its own. Before the rule
 * (models/training/README.md, thirteenth round): `f+7` 33 of 69 (55 after it; 54 with the rarer-twin weights, a `7` at 0.24 read `)`) (the `+` read as the f's
 * subscript: a hand's f does not descend), `a_{n+1}` 46, `e^{-x}` 47.
 */
describe.skipIf(!datasetsPresent())('binary operators on real ink of training writers', () => {
  const exactReads = foldOneExactReads();

  it('reads f+7 on one line, and keeps the operators of a_{n+1} and e^{-x} in their scripts', async () => {
    expect(await exactReads('f+7', (c) => c.row([c.symbol('f'), c.symbol('+'), c.symbol('7')]))).toBeGreaterThanOrEqual(54);
    const small = (c: Composer, ...labels: string[]) => c.row(labels.map((l) => c.symbol(l, 0.7)));
    expect(await exactReads('a_{n+1}', (c) => c.script(c.symbol('a'), small(c, 'n', '+', '1'), false))).toBeGreaterThanOrEqual(46);
    expect(await exactReads('e^{-x}', (c) => c.script(c.symbol('e'), small(c, '-', 'x'), true))).toBeGreaterThanOrEqual(48);
  }, 120_000);

  it('keeps the 1 that its place made of a `/` or `|` after x^{2}+ (was 30 of 69, the `/` taken back and raised)', async () => {
    const squared = (c: Composer) => c.row([c.script(c.symbol('x'), c.symbol('2', 0.7), true), c.symbol('+'), c.symbol('1')]);
    expect(await exactReads('x^{2}+1', squared)).toBeGreaterThanOrEqual(39);
  }, 120_000);
});
