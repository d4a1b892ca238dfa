import {
  bulletListPdf,
  encryptedPdf,
  HEADING_TEXT,
  headingAndParagraphsPdf,
  LIST_ITEMS,
  linkPdf,
  pagedPdf,
  truncatedPdf,
  twoColumnPdf,
  zeroBytePdf,
} from '../support/pdf-fixtures.js';

/** The soak's document mix, shared by soak.ts and worker-leak.ts so both exercise the same pages. */

export interface SoakFixture {
  bytes: Buffer;
  /** Text that must appear exactly once per page of the output, or null for a document that must fail. */
  perPage: string[] | null;
}

/** `count` documents cycling through twenty kinds, one in twenty of them broken (truncated, encrypted, zero bytes). */
export async function soakFixtures(count: number): Promise<SoakFixture[]> {
  const paged = await Promise.all(
    [1, 2, 3, 4, 6].map(async (n) => ({ bytes: await pagedPdf(n), perPage: Array.from({ length: n }, (_, p) => `Body of page ${p + 1}.`) })),
  );
  const heading = { bytes: await headingAndParagraphsPdf(), perPage: [HEADING_TEXT] };
  const columns = { bytes: await twoColumnPdf(), perPage: ['Left column line 1 text'] };
  const list = { bytes: await bulletListPdf(), perPage: [LIST_ITEMS[0]!] };
  const link = { bytes: await linkPdf(), perPage: ['for details.'] };
  const broken: SoakFixture[] = [await truncatedPdf(), encryptedPdf(), zeroBytePdf()].map((bytes) => ({ bytes, perPage: null }));
  const good: SoakFixture[] = [...paged, ...paged, heading, heading, columns, columns, list, list, link, link, heading];
  return Array.from({ length: count }, (_, i) => (i % 20 === 19 ? broken[Math.floor(i / 20) % broken.length]! : good[i % 20]!));
}

/** The file name of the i-th soak document. */
export const soakName = (i: number) => `doc-${String(i).padStart(4, '0')}.pdf`;
