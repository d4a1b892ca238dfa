import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../core/errors.js';
import * as fx from '../../../test/support/pdf-fixtures.js';
import { type OcrPage, convertDocument, countPages, PAGE_BREAK_MARKER, type DocumentOptions, type DocumentResult } from './index.js';
import type { MmdLineEntry, PageLines } from '../../../page/render/lines-json.js';
import { MAX_PDF_BYTES } from './pdf.js';

let dir: string;
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-pipeline-'));
  const build: Record<string, () => Buffer | Promise<Buffer>> = {
    heading: fx.headingAndParagraphsPdf,
    columns: fx.twoColumnPdf,
    list: fx.bulletListPdf,
    paged: () => fx.pagedPdf(5),
    link: fx.linkPdf,
    mixed: fx.mixedScannedPdf,
    math: fx.mathPdf,
    encrypted: fx.encryptedPdf,
    truncated: fx.truncatedPdf,
    zero: fx.zeroBytePdf,
  };
  for (const [name, make] of Object.entries(build)) {
    files[name] = join(dir, `${name}.pdf`);
    await writeFile(files[name], await make());
  }
  files.garbage = join(dir, 'garbage.bin');
  await writeFile(files.garbage, Buffer.from('GIF89a not a document at all'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const convert = (name: string, opts: DocumentOptions = {}) => convertDocument(files[name], opts);

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

function mmdLines(r: DocumentResult): MmdLineEntry[] {
  return (r.linesMmdJson.pages as PageLines<MmdLineEntry>[]).flatMap((p) => p.lines);
}

describe('convertDocument on born-digital pages', () => {
  it('writes the heading, then both paragraphs in order, joining the hyphenated word', async () => {
    const r = await convert('heading');
    expect(r.mmd).toBe(
      `# ${fx.HEADING_TEXT}\n\n${fx.PARAGRAPH_ONE.join(' ')}\n\n` +
        'The second paragraph follows after a blank gap and ends with a hyphenated word that must be joined again.',
    );
    expect(r.pages).toEqual([{ page: 1, status: 'completed', kind: 'text', seconds: expect.any(Number) }]);
  });

  it('reads the left column before the right one', async () => {
    const { mmd } = await convert('columns');
    const at = (s: string) => mmd.indexOf(s);
    for (let i = 1; i <= 6; i++) expect(at(`Left column line ${i} text`)).toBeGreaterThanOrEqual(0);
    expect(at('Left column line 6')).toBeLessThan(at('Right column line 1'));
    expect(at('Left column line 1')).toBeLessThan(at('Left column line 2'));
    expect(at('Right column line 5')).toBeLessThan(at('Right column line 6'));
  });

  it('writes lists as itemize environments, a numbered item with its number as its label (4.2 default)', async () => {
    const { mmd, linesJson } = await convert('list');
    expect(mmd).toContain(`\\begin{itemize}\n${fx.LIST_ITEMS.map((t) => `\\item ${t}`).join('\n')}\n\\end{itemize}`);
    expect(mmd).toContain('\\begin{itemize}\n\\item[1.] Numbered one\n\\item[2.] Numbered two\n\\end{itemize}');
    expect(mmd.startsWith('Things to remember:\n\n')).toBe(true);
    const types = (linesJson.pages[0].lines as { type: string }[]).map((l) => l.type);
    expect(types.filter((t) => t === 'list_item')).toHaveLength(5);
  });

  it('writes bullet items as "- " and numbered items as "N. " with disable_itemize', async () => {
    const { mmd } = await convert('list', { disableItemize: true });
    expect(mmd).toContain(fx.LIST_ITEMS.map((t) => `- ${t}`).join('\n'));
    expect(mmd).toContain('1. Numbered one\n2. Numbered two');
    expect(mmd).not.toContain('itemize');
  });

  it('makes links only when includeHyperlinks is set', async () => {
    expect((await convert('link', { includeHyperlinks: true })).mmd).toBe(`Visit the [Folio website](${fx.LINK_URL}) for details.`);
    const plain = await convert('link');
    expect(plain.mmd).toBe('Visit the Folio website for details.');
  });

  it('turns maths glyphs into LaTeX inside the inline and display delimiters', async () => {
    const r = await convert('math');
    expect(r.mmd).toContain('Assume \\( \\alpha\\leq\\beta \\) and that \\( x^{2} \\) is small.');
    expect(r.mmd).toContain('\\[\n\\sum a\\leq\\gamma\n\\]');
    const dollars = await convert('math', { mathInlineDelimiters: ['$', '$'], mathDisplayDelimiters: ['$$', '$$'] });
    expect(dollars.mmd).toContain('$\\alpha\\leq\\beta$');
    expect(dollars.mmd).toContain('$$\n\\sum a\\leq\\gamma\n$$');
    expect(mmdLines(r).map((l) => l.type)).toContain('math');
  });
});

describe('pages, ranges and limits', () => {
  it("selects '2 - -2' of five pages and reports the PDF's own count", async () => {
    const r = await convert('paged', { pageRanges: '2 - -2' });
    expect(r.numPagesPdf).toBe(5);
    expect(r.pages.map((p) => p.page)).toEqual([2, 3, 4]);
    expect(r.mmd).toContain('Body of page 2.');
    expect(r.mmd).toContain('Body of page 4.');
    expect(r.mmd).not.toContain('Body of page 1.');
    expect(r.mmd).not.toContain('Body of page 5.');
  });

  it('rejects unparsable and out-of-document ranges with opts_bad_page_range', async () => {
    expect((await rejection(convert('paged', { pageRanges: '4-9' }))).id).toBe('opts_bad_page_range');
    expect((await rejection(convert('paged', { pageRanges: 'two' }))).id).toBe('opts_bad_page_range');
  });

  it('fails with pdf_page_limit_exceeded and max_limit when more pages are selected than allowed', async () => {
    const err = await rejection(convert('paged', { maxPages: 3 }));
    expect(err.id).toBe('pdf_page_limit_exceeded');
    expect(err.extras).toEqual({ max_limit: 3 });
    expect(err.retryable).toBe(false);
    expect((await convert('paged', { maxPages: 3, pageRanges: '1-3' })).pages).toHaveLength(3);
  });

  it('writes one page-break marker after each page when asked', async () => {
    const r = await convert('paged', { includePageBreaks: true });
    expect(r.mmd.split('\n').filter((l) => l === PAGE_BREAK_MARKER)).toHaveLength(5);
    expect(r.mmd.endsWith(PAGE_BREAK_MARKER)).toBe(true);
    expect(r.mmd.indexOf('Body of page 2.')).toBeGreaterThan(r.mmd.indexOf(PAGE_BREAK_MARKER));
    expect((await convert('paged')).mmd).not.toContain(PAGE_BREAK_MARKER);
  });

  it('drops running headers and page numbers by default and keeps them with includePageInfo', async () => {
    const r = await convert('paged');
    expect(r.mmd).not.toContain(fx.RUNNING_HEADER);
    expect(r.mmd.split('\n').filter((l) => /^\d+$/.test(l.trim()))).toEqual([]);
    const info = (r.linesJson.pages[0].lines as { type: string; text: string; conversion_output: boolean }[]).filter((l) => l.type === 'page_info');
    expect(info.map((l) => [l.text, l.conversion_output])).toEqual([
      [fx.RUNNING_HEADER, false],
      ['1', false],
    ]);
    const kept = await convert('paged', { includePageInfo: true });
    expect(kept.mmd).toContain(fx.RUNNING_HEADER);
    expect(kept.mmd.split('\n')).toContain('3');
  });

  it('fails a scanned page with its id while text pages complete and a blank page counts as completed', async () => {
    const r = await convert('mixed');
    expect(r.pages.map(({ seconds, ...p }) => p)).toEqual([
      { page: 1, status: 'completed', kind: 'text' },
      { page: 2, status: 'failed', kind: 'scanned', error_id: 'sys_exception', error_message: 'scanned page: OCR engine not available in this build' },
      { page: 3, status: 'completed', kind: 'blank' },
    ]);
    expect(r.mmd).toBe('A born-digital page with real text.');
    expect(r.linesJson.pages.map((p) => p.lines.length)).toEqual([1, 0, 0]);
  });

  it('fails a page that outlives pageTimeoutMs with page_timeout and goes on with the next', async () => {
    const slow = (n: number) => (n === 2 ? new Promise<void>((res) => setTimeout(res, 1500)) : undefined);
    const r = await convertDocument(files.paged, { pageTimeoutMs: 500, pageRanges: '1-3' }, { beforePage: slow });
    expect(r.pages.map((p) => [p.page, p.status, p.error_id])).toEqual([
      [1, 'completed', undefined],
      [2, 'failed', 'page_timeout'],
      [3, 'completed', undefined],
    ]);
    expect(r.mmd).toContain('Body of page 3.');
    expect(r.mmd).not.toContain('Body of page 2.');
  });

  it('does not count the time a scanned page waits in the queue against its limit', async () => {
    const read =
      (pauses: boolean): OcrPage =>
      async (_page, _w, _h, clock) => {
        if (pauses) clock?.pause();
        await new Promise((res) => setTimeout(res, 700)); // queued behind other pages
        if (pauses) clock?.resume();
        return {
          read: { width: 600, height: 800, lines: [{ text: 'Scanned', confidence: 0.9, box: { x: 72, y: 90, width: 42, height: 12 }, kind: 'text' }] },
          scale: 1,
        };
      };
    const waited = await convertDocument(files.mixed, { pageTimeoutMs: 400 }, { ocr: () => read(true) });
    expect(waited.pages.map((p) => [p.page, p.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [3, 'completed'],
    ]);
    expect(waited.mmd).toContain('Scanned');
    const slow = await convertDocument(files.mixed, { pageTimeoutMs: 400 }, { ocr: () => read(false) });
    expect(slow.pages[1]).toMatchObject({ page: 2, status: 'failed', error_id: 'page_timeout' });
  });

  it("writes a scanned page's maths with the request's equation options, as on the other pages (4.2 rules 4 and 6)", async () => {
    const math = { latex: '\\mathbf{s} = \\begin{cases} 1 & x > 0 \\\\ 0 & x \\leq 0 \\end{cases}', confidence: 0.9, confidenceRate: 0.9, symbolCount: 12 };
    const read: OcrPage = async () => ({
      read: {
        width: 600,
        height: 800,
        lines: [
          { text: 'The step function is', confidence: 0.9, box: { x: 72, y: 90, width: 160, height: 12 }, kind: 'text' },
          { text: '', confidence: 0.9, box: { x: 150, y: 120, width: 200, height: 40 }, kind: 'math', math },
        ],
      },
      scale: 1,
    });
    const scanned = (opts: DocumentOptions) => convertDocument(files.mixed, { ...opts, pageRanges: '2' }, { ocr: () => read });
    expect((await scanned({})).mmd).toContain('\\mathbf{s}=\\left\\{\\begin{array}{ll}1&x>0');
    const turned = (await scanned({ rmSpaces: false, rmFonts: true, idiomaticEqnArrays: true })).mmd;
    expect(turned).toContain('s = \\begin{cases} 1 & x > 0');
  });

  it('counts pages without converting them', async () => {
    expect(await countPages(files.paged)).toBe(5);
  });
});

describe('whole-document errors (never retried)', () => {
  it.each([
    ['zero', 'pdf_content_type'],
    ['truncated', 'pdf_content_type'],
    ['encrypted', 'pdf_encrypted'],
    ['garbage', 'unsupported_format'],
  ])('%s input fails with %s', async (name, id) => {
    const err = await rejection(convert(name));
    expect(err.id).toBe(id);
    expect(err.retryable).toBe(false);
    expect(err.message.length).toBeGreaterThan(10);
  });

  // A 4 GiB upload (the Files API admits 15 GB) is one byte more than pdf.js can address: it is
  // refused by its size before a byte of it is read. The file is sparse: made at once, no disk used.
  it('a PDF over MAX_PDF_BYTES fails content_too_large before it is read, in counting and converting', async () => {
    const path = join(dir, 'four-gib.pdf');
    await writeFile(path, '%PDF-1.4\n');
    await truncate(path, MAX_PDF_BYTES + 1);
    await Promise.all([countPages(files.paged), convert('paged')]); // pdf.js loaded in both places first
    const rss = process.memoryUsage().rss;
    for (const run of [() => countPages(path), () => convertDocument(path)]) {
      const err = await rejection(run());
      expect(err.id).toBe('content_too_large');
      expect(err.retryable).toBe(false);
    }
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 2 ** 20);
    await rm(path);
  });
});

describe('lines.json and lines.mmd.json', () => {
  it('places each line in PDF points from the top-left, with its type and size', async () => {
    const r = await convert('heading');
    const page = r.linesJson.pages[0];
    expect([page.page, page.page_width, page.page_height]).toEqual([1, 612, 792]);
    const heading = page.lines[0] as { type: string; text: string; font_size: number; region: { top_left_x: number; top_left_y: number; height: number } };
    expect(heading).toMatchObject({ type: 'section_header', text: fx.HEADING_TEXT, font_size: 20, conversion_output: true });
    expect(heading.region.top_left_x).toBeCloseTo(72, 0);
    // Baseline at y=700 from the bottom: 92 pt from the top, the box rising 0.8 em above it.
    expect(heading.region.top_left_y).toBeCloseTo(792 - 700 - 16, 0);
    expect(page.lines).toHaveLength(7);
  });

  it.each(['heading', 'columns', 'list', 'paged', 'link', 'math', 'mixed'])(
    'gives %s lines whose MMD sits in the document MMD at their offsets',
    async (name) => {
      const r = await convert(name, { includeHyperlinks: true, includePageBreaks: true });
      const lines = mmdLines(r);
      expect(lines.length).toBeGreaterThan(0);
      let last = 0;
      for (const l of lines) {
        expect(r.mmd.slice(l.mmd_start, l.mmd_end)).toBe(l.text);
        expect(l.mmd_start).toBeGreaterThanOrEqual(last);
        last = l.mmd_end;
      }
      // Everything in the MMD but separators and page-break markers comes from some line.
      let rest = r.mmd;
      for (const l of [...lines].reverse()) rest = rest.slice(0, l.mmd_start) + rest.slice(l.mmd_end);
      // (and the itemize environments around list items)
      expect(
        rest
          .replaceAll(PAGE_BREAK_MARKER, '')
          .replace(/\\(begin|end)\{itemize\}/g, '')
          .trim(),
      ).toMatch(/^\s*$/);
    },
  );
});

describe('a runaway page', () => {
  it('is stopped when its clock runs out: page_timeout, CPU freed at once, the other pages read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'folio-runaway-'));
    try {
      const path = join(dir, 'runaway.pdf');
      await writeFile(path, fx.runawayPagePdf());
      const limitMs = 2000;
      const r = await convertDocument(path, { pageTimeoutMs: limitMs });
      expect(r.pages.map((p) => [p.page, p.status, p.error_id])).toEqual([
        [1, 'completed', undefined],
        [2, 'failed', 'page_timeout'],
        [3, 'completed', undefined],
      ]);
      expect(r.pages[1]!.seconds).toBeLessThan(limitMs / 1000 + 2);
      expect(r.mmd).toContain('Body of page 3.');
      // Before pdf.js ran in a thread the page went on in the background for minutes.
      const cpu0 = process.cpuUsage();
      await new Promise((res) => setTimeout(res, 1000));
      const cpu = process.cpuUsage(cpu0);
      expect((cpu.user + cpu.system) / 1e6).toBeLessThan(0.3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
