import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { type FigureFiles, writeConversions } from './conversions.js';

const scratch = mkdtempSync(join(tmpdir(), 'folio-conversions-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One member of a zip archive, read with Debian's unzip. */
function unzipMember(zip: Buffer, member: string): string {
  writeFileSync(join(scratch, 'a.zip'), zip);
  return execFileSync('unzip', ['-p', join(scratch, 'a.zip'), member]).toString();
}

const MMD = '# Results\n\nThe energy is \\(E = mc^2\\) and\n\n\\[\n\\frac{a}{b} = \\sqrt{x}\n\\]\n\n| n | \\(n^2\\) |\n|---|---|\n| 3 | 9 |\n';

async function convert(mmd: string, formats: Record<string, boolean>, figures?: FigureFiles) {
  const out: Record<string, Buffer> = {};
  const status = await writeConversions(
    mmd,
    formats,
    async (ext, body) => {
      out[ext] = Buffer.isBuffer(body) ? body : Buffer.from(body);
    },
    figures,
  );
  return { status, out };
}

describe('writeConversions', () => {
  it('makes docx with a native Word equation, html with MathML, pptx, md and tex.zip', async () => {
    const { status, out } = await convert(MMD, { docx: true, html: true, 'tex.zip': true, md: true, pptx: true, xlsx: false });
    expect(status).toEqual({
      docx: { status: 'completed' },
      html: { status: 'completed' },
      'tex.zip': { status: 'completed' },
      md: { status: 'completed' },
      pptx: { status: 'completed' },
    });
    expect(unzipMember(out.docx!, 'word/document.xml')).toContain('<m:oMath');
    expect(out.html!.toString()).toContain('<mfrac>');
    expect(out.html!.toString()).not.toContain('class="title"'); // no invented "Document" heading
    const slide = unzipMember(out.pptx!, 'ppt/slides/slide1.xml');
    expect(slide).toContain('Results');
    expect(slide).toContain('m:oMath'); // maths stays an equation in PowerPoint too
    expect(unzipMember(out['tex.zip']!, 'document.tex')).toContain('\\frac{a}{b}');
    expect(out.md!.toString()).toBe(MMD);
  });

  it('keeps the itemize lists and listings of an image or scanned page in docx and html, nesting and maths included', async () => {
    const mmd =
      'Shopping:\n\n\\begin{itemize}\n\\item Fresh bread \\(x^{2}\\)\n\\begin{itemize}\n\\item Rye loaf\n\\end{itemize}\n\\item Two litres of milk\n\\end{itemize}\n\n' +
      'Steps:\n\n\\begin{itemize}\n\\item[3.] Knead\n\\item[4.] Bake\n\\end{itemize}\n\n' +
      'Code:\n\n\\begin{lstlisting}\nint total = 0;\n\\end{lstlisting}\n\nDone.';
    const { out } = await convert(mmd, { docx: true, html: true, md: true });
    const html = out.html!.toString();
    expect(html).toMatch(/<li>Fresh bread\s*<math[\s\S]*?<ul>\s*<li>Rye loaf<\/li>\s*<\/ul><\/li>\s*<li>Two litres of milk<\/li>/);
    expect(html).toMatch(/<ol start="3"[^>]*>\s*<li>Knead<\/li>\s*<li>Bake<\/li>/);
    expect(html).toContain('<code>int total = 0;</code>');
    const word = unzipMember(out.docx!, 'word/document.xml');
    for (const text of ['Fresh bread', 'Rye loaf', 'Two litres of milk', 'int total = 0;', 'Done.']) expect(word).toContain(text);
    expect(word).toContain('<w:numPr>'); // Word list items, not plain paragraphs
    expect(out.md!.toString()).toBe(mmd); // the MMD itself keeps its environments
  });

  it('keeps the boxed tabular a page is written with (tables-mmd.ts) as a table in docx and html, maths included', async () => {
    const mmd =
      'Measured:\n\n\\begin{tabular}{|l|r|}\n\\hline Metal & Density \\\\\n\\hline Iron \\& steel & \\(|x|^{2}\\) \\\\\n' +
      '\\hline \\multicolumn{2}{|c|}{Gold} \\\\\n\\hline\n\\end{tabular}\n\nDone.';
    const { out } = await convert(mmd, { docx: true, html: true });
    const html = out.html!.toString();
    expect(html).toMatch(/<table>\s*<tbody>\s*<tr[^>]*>\s*<td[^>]*>Metal<\/td>\s*<td[^>]*>Density<\/td>/);
    expect(html).toMatch(/<td[^>]*>Iron &amp; steel<\/td>\s*<td[^>]*><math[\s\S]*?<\/math><\/td>/);
    expect(html).toMatch(/<td[^>]*>Gold<\/td>/);
    const word = unzipMember(out.docx!, 'word/document.xml');
    expect(word).toContain('<w:tbl>');
    for (const text of ['Density', 'Iron &amp; steel', 'Gold', 'Done.']) expect(word).toContain(text);
  });

  it('makes a tex.zip that compiles with plain pdflatex once unzipped, Unicode and all', async () => {
    const mmd = `${MMD}\nGreek α ≤ β, café, a ﬁne ligature, Кириллица and 漢字 in text; \\(x ∈ ℝ\\) in maths.\n`;
    const { status, out } = await convert(mmd, { 'tex.zip': true });
    expect(status['tex.zip']).toEqual({ status: 'completed' });
    const dir = mkdtempSync(join(scratch, 'unzipped-'));
    writeFileSync(join(dir, 'paper.tex.zip'), out['tex.zip']!);
    execFileSync('unzip', ['-q', 'paper.tex.zip'], { cwd: dir });
    // As a user would run it: no Folio flags, the zip's document.tex alone.
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'document.tex'], { cwd: dir, stdio: 'ignore' });
    const text = execFileSync('pdftotext', [join(dir, 'document.pdf'), '-']).toString();
    expect(text).toContain('Results');
    expect(text).toMatch(/α\s*≤\s*β/);
    expect(text).toContain('café');
    expect(text).toContain('fine ligature');
    expect(readFileSync(join(dir, 'document.pdf')).length).toBeGreaterThan(5_000);
  });

  it('makes latex.pdf (LaTeX rendering) and pdf (HTML rendering) as two different PDFs', async () => {
    const { status, out } = await convert(MMD, { 'latex.pdf': true, pdf: true });
    expect(status).toEqual({ 'latex.pdf': { status: 'completed' }, pdf: { status: 'completed' } });
    for (const ext of ['latex.pdf', 'pdf']) {
      writeFileSync(join(scratch, `out.${ext}`), out[ext]!);
      expect(execFileSync('pdftotext', [join(scratch, `out.${ext}`), '-']).toString()).toContain('The energy is');
    }
    const producer = (ext: string) => execFileSync('pdfinfo', [join(scratch, `out.${ext}`)]).toString();
    expect(producer('latex.pdf')).toMatch(/Producer:\s+pdfTeX/);
    expect(producer('pdf')).toMatch(/Producer:\s+Skia/);
  });

  it('reports a LaTeX error on latex.pdf with its message and writes nothing for it', async () => {
    const { status, out } = await convert('Raw \\notamacro in the prose\n', { 'latex.pdf': true, 'tex.zip': true });
    expect(status['latex.pdf']).toEqual({
      status: 'error',
      error_id: 'sys_exception',
      error_message: expect.stringMatching(/pdflatex could not compile.*Undefined control sequence/),
    });
    expect(out['latex.pdf']).toBeUndefined();
    expect(status['tex.zip']).toEqual({ status: 'completed' }); // the source is still worth having
  });

  it('answers unsupported_format with a reason for formats it cannot make', async () => {
    const { status, out } = await convert('Only prose here.\n', { 'mmd.overlay.pdf': true });
    expect(status['mmd.overlay.pdf']).toEqual({ status: 'error', error_id: 'unsupported_format', error_message: expect.stringContaining('mmd.overlay.pdf') });
    expect(out).toEqual({});
  });

  it('makes an xlsx with one empty sheet for a document without tables', async () => {
    const { status, out } = await convert('Only prose here.\n', { xlsx: true });
    expect(status.xlsx).toEqual({ status: 'completed' });
    expect(unzipMember(out.xlsx!, 'xl/workbook.xml')).toContain('<sheet name="No tables" sheetId="1" r:id="rId1"/>');
    expect(unzipMember(out.xlsx!, 'xl/worksheets/sheet1.xml')).toContain('<sheetData></sheetData>');
  });

  it('reports mmd completed, puts latex under .tex and renders the pages as jpg and png', async () => {
    const pdf = join(scratch, 'two-pages.pdf');
    // Two pages of the printed rendering stand in for a source PDF.
    const printed = await convert(`${MMD}\n\\newpage\n\n${MMD}`, { pdf: true });
    writeFileSync(pdf, printed.out.pdf!);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf]).toString())![1]);
    const out: Record<string, Buffer> = {};
    const status = await writeConversions(
      MMD,
      { mmd: true, latex: true, jpg: true, png: true },
      async (ext, body) => {
        out[ext] = Buffer.isBuffer(body) ? body : Buffer.from(body);
      },
      undefined,
      pdf,
    );
    expect(status).toEqual({ mmd: { status: 'completed' }, latex: { status: 'completed' }, jpg: { status: 'completed' }, png: { status: 'completed' } });
    expect(Object.keys(out).sort()).toEqual(['jpg', 'png', 'tex']); // mmd is the caller's own output
    expect(out.tex!.toString()).toContain('\\frac{a}{b}');
    expect(out.tex!.toString()).toContain('\\documentclass');
    const jpg = await sharp(out.jpg!).metadata();
    const png = await sharp(out.png!).metadata();
    expect([jpg.format, png.format]).toEqual(['jpeg', 'png']);
    // One page at 100 dpi is about 1,100 pixels high: the image holds every page, one under another.
    expect(jpg.height).toBeGreaterThan(pages * 1000);
    expect(png.height).toBe(jpg.height);
  });

  it('carries figures into every format from storage, never over HTTP', async () => {
    const name = '2025_06_01_0123456789abcdef0123-1-1';
    // An address nothing answers at: a format that fetched it would fail or lose the figure.
    const url = `http://127.0.0.1:9/cdn/cropped/${name}.jpg?height=120&width=200&top_left_y=30&top_left_x=40`;
    const mmd = `# Results\n\n![](${url})\n\nFigure 1: Red square.\n\nThe energy is \\(E = mc^2\\).\n`;
    const jpeg = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#cc2222' } })
      .jpeg()
      .toBuffer();
    const reads: string[] = [];
    const files: FigureFiles = { read: async (n) => (reads.push(n), jpeg) };
    const formats = { md: true, html: true, docx: true, 'tex.zip': true, 'md.zip': true, 'mmd.zip': true, 'html.zip': true, 'latex.pdf': true, pdf: true };
    const { status, out } = await convert(mmd, formats, files);
    for (const ext of Object.keys(formats)) expect(status[ext], ext).toEqual({ status: 'completed' });
    expect(reads).toEqual([name]);
    const member = `images/${name}.jpg`;
    for (const ext of ['tex.zip', 'md.zip', 'mmd.zip', 'html.zip']) {
      writeFileSync(join(scratch, 'a.zip'), out[ext]!);
      expect(execFileSync('unzip', ['-Z1', join(scratch, 'a.zip')]).toString(), ext).toContain(member);
    }
    expect(unzipMember(out['md.zip']!, 'document.md')).toContain(`![](${member})`);
    expect(unzipMember(out['mmd.zip']!, 'document.mmd')).toContain(`![](${member})`);
    expect(unzipMember(out['html.zip']!, 'document.html')).toContain(`src="${member}"`);
    expect(unzipMember(out['tex.zip']!, 'document.tex')).toContain(`\\includegraphics{${member}}`);
    // md and html link out as the MMD does (the CDN).
    expect(out.md!.toString()).toBe(mmd);
    expect(out.html!.toString()).toContain(`/cdn/cropped/${name}.jpg`);
    writeFileSync(join(scratch, 'a.docx'), out.docx!);
    expect(execFileSync('unzip', ['-Z1', join(scratch, 'a.docx')]).toString()).toMatch(/word\/media\/.+\.jpg/);
    for (const ext of ['latex.pdf', 'pdf']) {
      writeFileSync(join(scratch, `fig.${ext}`), out[ext]!);
      const images = execFileSync('pdfimages', ['-list', join(scratch, `fig.${ext}`)])
        .toString()
        .trim()
        .split('\n')
        .slice(2);
      expect(images.length, ext).toBeGreaterThanOrEqual(1);
    }
    // The tex.zip compiles on its own, its image resolved from images/.
    const dir = mkdtempSync(join(scratch, 'figtex-'));
    writeFileSync(join(dir, 'paper.tex.zip'), out['tex.zip']!);
    execFileSync('unzip', ['-q', 'paper.tex.zip'], { cwd: dir });
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'document.tex'], { cwd: dir, stdio: 'ignore' });
    expect(
      execFileSync('pdfimages', ['-list', join(dir, 'document.pdf')])
        .toString()
        .trim()
        .split('\n').length,
    ).toBeGreaterThan(2);
  });

  it('never fetches an image the MMD points at, remote or local, into docx or pptx', async () => {
    let requests = 0;
    const server = createServer((_req, res) => (requests++, res.end(readFileSync(join(scratch, 'secret.png')))));
    writeFileSync(
      join(scratch, 'secret.png'),
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } })
        .png()
        .toBuffer(),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const mmd = `Remote ![chart](http://127.0.0.1:${port}/x.png) and local ![key](${join(scratch, 'secret.png')}) and ref ![r][img]\n\n[img]: http://127.0.0.1:${port}/y.png\n`;
      const { status, out } = await convert(mmd, { docx: true, pptx: true });
      expect(status).toEqual({ docx: { status: 'completed' }, pptx: { status: 'completed' } });
      expect(requests).toBe(0);
      for (const ext of ['docx', 'pptx'] as const) {
        writeFileSync(join(scratch, `a.${ext}`), out[ext]!);
        expect(execFileSync('unzip', ['-Z1', join(scratch, `a.${ext}`)]).toString(), ext).not.toMatch(/media\/.*\.png/);
      }
      expect(unzipMember(out.docx!, 'word/document.xml')).toContain('chart'); // kept as a link
    } finally {
      server.close();
    }
  });
});
