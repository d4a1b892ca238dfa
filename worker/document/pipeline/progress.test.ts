import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pagedPdf } from '../../../test/support/pdf-fixtures.js';
import { convertDocument, type PageOutcome } from './index.js';

describe('convertDocument progress hooks', () => {
  it('reports the page count before the first page, then each page with its MMD', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-progress-'));
    try {
      const path = join(dir, 'doc.pdf');
      await writeFile(path, await pagedPdf(4));
      const calls: string[] = [];
      const pages: { outcome: PageOutcome; mmd: string }[] = [];
      const result = await convertDocument(
        path,
        { pageRanges: '2-4' },
        {
          onSplit: (n, total) => void calls.push(`split ${n}/${total}`),
          beforePage: (n) => void calls.push(`before ${n}`),
          afterPage: (outcome, mmd) => {
            calls.push(`after ${outcome.page}`);
            pages.push({ outcome, mmd });
          },
        },
      );
      expect(calls).toEqual(['split 3/4', 'before 2', 'after 2', 'before 3', 'after 3', 'before 4', 'after 4']);
      expect(pages.every((p) => p.outcome.status === 'completed' && p.mmd.length > 0 && result.mmd.includes(p.mmd))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
