import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runawayPagePdf } from '../../../test/support/pdf-fixtures.js';
import { renderPage, renderRegion } from './figure-crop.js';

/** pdftoppm processes rendering `path`, found by their command line. */
const rendering = (path: string) => {
  try {
    return execFileSync('pgrep', ['-f', `pdftoppm.*${path}`], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // pgrep exits 1 when nothing matches
  }
};

// A figure render runs under its page's clock (run-page.ts passes the clock's signal): when the
// page's time runs out pdftoppm is killed, and until then no shorter limit of its own applies.
// Page 2 of the runaway fixture keeps pdftoppm busy for minutes (2^28 form calls).
describe('figure renders stop with their page', () => {
  let dir: string;
  let pdf: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-figure-crop-'));
    pdf = join(dir, 'runaway.pdf');
    await writeFile(pdf, runawayPagePdf());
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const region = { top_left_x: 0, top_left_y: 0, width: 200, height: 200 };
  const cases = [
    ['a region', (signal: AbortSignal) => renderRegion(pdf, 2, region, { signal })],
    ['a region for a reader', (signal: AbortSignal) => renderRegion(pdf, 2, region, { png: true, dpi: 300, signal })],
    ['a whole page', (signal: AbortSignal) => renderPage(pdf, 2, signal)],
  ] as const;

  it.each(cases)('%s: pdftoppm is killed when the signal aborts', async (_, render) => {
    const stop = new AbortController();
    const started = Date.now();
    const done = render(stop.signal);
    setTimeout(() => stop.abort(), 500);
    await expect(done).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(rendering(pdf)).toBe('');
  });
});
