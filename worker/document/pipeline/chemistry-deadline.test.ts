import { describe, expect, it } from 'vitest';
import { osraHostilePng } from '../../../test/support/chemistry-images.js';
import { compileLatex } from '../../../test/support/latex-pdf.js';
import { convertDocument } from './index.js';

/**
 * A figure that keeps OSRA busy (about 18 s of one core) on a page with a short time limit, as
 * private-cloud jobs have (15 s a page by default): OSRA is allowed far more CPU time than the
 * page has, so only the page's deadline can stop it. The page must complete with the figure kept
 * as a figure rather than fail with page_timeout.
 */
describe('chemistry within a page time limit', () => {
  it('stops OSRA at the page deadline, keeps the figure as a figure and completes the page', async () => {
    const pdf = await compileLatex(
      'The compounds were prepared as described in the methods.\n\n\\begin{center}\\includegraphics[width=4.5in]{hostile.png}\\end{center}\n\nYields are given after purification.',
      { packages: 'graphicx', files: { 'hostile.png': await osraHostilePng() } },
    );
    try {
      const sink = { prefix: 'deadline', save: async () => undefined, link: (name: string) => `${name}.jpg` };
      const started = Date.now();
      const result = await convertDocument(pdf.path, { chemistry: { smiles: true, cpuSeconds: 120 }, pageTimeoutMs: 10_000 }, { figures: sink });
      expect(
        result.pages.map((p) => p.status),
        JSON.stringify(result.pages),
      ).toEqual(['completed']);
      expect(result.mmd).toContain('![](deadline-1-1.jpg)');
      expect(result.mmd).not.toContain('<smiles');
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      await pdf.cleanup();
    }
  }, 90_000);
});
