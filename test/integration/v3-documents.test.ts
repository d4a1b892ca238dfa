import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { waitFor } from '../support/ports.js';
import { scannedPdf } from '../support/scanned-fixtures.js';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';

const run = promisify(execFile);

/**
 * Issue 5, "done when": real documents through a running appliance. One paper written in LaTeX
 * (title, sections, paragraphs, inline and display maths, a table) is compiled with pdflatex,
 * scanned (pages rasterised, reassembled as an image-only PDF), and turned into a DOCX and an
 * EPUB by pandoc from the same source.
 */
const TITLE = 'Heat Flow in Thin Rods';
const SENTENCE = 'This paragraph is long enough to wrap over several lines so that the reader joins them again into a single paragraph of running text.';
const PAPER_TEX = String.raw`\documentclass[11pt]{article}
\usepackage{amsmath}
\title{${TITLE}}
\author{A. Researcher}
\date{}
\begin{document}
\maketitle
\section{Introduction}
The temperature of a thin rod changes with time according to a simple law. We write the
diffusion constant as $\kappa$ and the length of the rod as $L$, and we assume $\kappa > 0$ throughout.
${SENTENCE}
\section{The heat equation}
The heat equation in one dimension reads
\begin{equation}
\frac{\partial u}{\partial t} = \kappa \frac{\partial^2 u}{\partial x^2}.
\end{equation}
Separating variables gives solutions of the form $u(x,t) = e^{-\kappa k^2 t} \sin(kx)$ for every wave number $k$.
\newpage
\section{Boundary conditions}
With both ends held at zero temperature the admissible wave numbers are
\[ k_n = \frac{n \pi}{L}, \qquad n = 1, 2, 3, \ldots \]
and the energy decays as $\sum_{n=1}^{\infty} a_n^2 e^{-2\kappa k_n^2 t}$.
\section{Measurements}
Table~1 lists the measured decay times of the first three modes.
\begin{center}
\begin{tabular}{lcc}
Mode & Decay time & Error \\ \hline
1 & 12.5 & 0.3 \\
2 & 3.1 & 0.1 \\
3 & 1.4 & 0.1 \\
\end{tabular}
\end{center}
\section{Conclusion}
The measured decay times agree with the predicted ratio of one to four to nine.
\end{document}
`;

/** The MMD a perfect reader would make of the paper: what /v3/converter is fed below. */
const PAPER_MMD = String.raw`# ${TITLE}

## 1 Introduction

We write the diffusion constant as \(\kappa\) and the length of the rod as \(L\). ${SENTENCE}

## 2 The heat equation

\[
\frac{\partial u}{\partial t}=\kappa \frac{\partial^{2} u}{\partial x^{2}}
\]

## 4 Measurements

| Mode | Decay time | Error |
| --- | --- | --- |
| 1 | 12.5 | 0.3 |
| 2 | 3.1 | 0.1 |
`;

interface Fixtures {
  pdf: Buffer;
  scanned: Buffer;
  docx: Buffer;
  epub: Buffer;
}

async function makeFixtures(dir: string): Promise<Fixtures> {
  await writeFile(join(dir, 'paper.tex'), PAPER_TEX);
  await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'paper.tex'], { cwd: dir });
  await run('pandoc', ['-f', 'latex', '-t', 'docx', '-o', 'paper.docx', 'paper.tex'], { cwd: dir });
  await run('pandoc', ['-f', 'latex', '-t', 'epub', '--metadata', `title=${TITLE}`, '-o', 'paper.epub', 'paper.tex'], { cwd: dir });
  const pdf = await readFile(join(dir, 'paper.pdf'));
  return { pdf, scanned: await scannedPdf(pdf, 150), docx: await readFile(join(dir, 'paper.docx')), epub: await readFile(join(dir, 'paper.epub')) };
}

/** Unzips `zip` into a fresh folder under `dir` and returns the folder. */
async function unzip(dir: string, zip: Buffer, name: string): Promise<string> {
  const into = await mkdtemp(join(dir, `${name}-`));
  await writeFile(join(into, name), zip);
  await run('unzip', ['-q', name], { cwd: into });
  return into;
}

const pdfText = async (dir: string, pdf: Buffer, name: string) => {
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await writeFile(join(dir, name), pdf);
  return (await run('pdftotext', [join(dir, name), '-'])).stdout;
};

describe('issue 5: a LaTeX paper, its scan, DOCX and EPUB through a running appliance', () => {
  let app: ApplianceProcess;
  let dir: string;
  let fx: Fixtures;
  let auth: Record<string, string>;

  const call = async (method: string, path: string, body?: { json?: unknown; form?: FormData }) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { ...auth, ...(body?.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body?.form ?? (body?.json !== undefined ? JSON.stringify(body.json) : undefined),
    });
    const buf = Buffer.from(await res.arrayBuffer());
    const json = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(buf.toString('utf8')) : null;
    return { status: res.status, buf, text: buf.toString('utf8'), json };
  };
  /** Uploads a document and polls it until it ends; returns its id and MMD. */
  const read = async (file: Buffer, filename: string, options: object = {}, timeoutMs = 60_000) => {
    const form = new FormData();
    form.append('options_json', JSON.stringify(options));
    form.append('file', new Blob([file]), filename);
    const res = await call('POST', '/v3/pdf', { form });
    expect(res.status, res.text).toBe(200);
    const id = res.json.pdf_id as string;
    const done = await waitFor(
      async () => {
        const s = (await call('GET', `/v3/pdf/${id}`)).json;
        return ['completed', 'error'].includes(s.status) && s;
      },
      timeoutMs,
      250,
    );
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed' });
    return { id, done, mmd: (await call('GET', `/v3/pdf/${id}.mmd`)).text };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-issue5-'));
    [app, fx] = await Promise.all([spawnAppliance({ FOLIO_DOCUMENT_WORKERS: '1', FOLIO_INFERENCE_WORKERS: '1' }), makeFixtures(dir)]);
    const made = (await fetch(`${app.url}/pco/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `issue5-${Date.now()}` }),
    }).then((r) => r.json())) as { app_id: string };
    const key = (await fetch(`${app.url}/pco/v1/apps/${made.app_id}/keys`, { method: 'POST' }).then((r) => r.json())) as { app_key: string };
    auth = { app_id: made.app_id, app_key: key.app_key };
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads the born-digital paper and makes every document format from it', async () => {
    const formats = { docx: true, html: true, 'tex.zip': true, 'latex.pdf': true, pdf: true, pptx: true };
    const { id, done, mmd } = await read(fx.pdf, 'paper.pdf', { conversion_formats: formats });
    expect(done).toMatchObject({ num_pages: 2, num_pages_completed: 2 });
    expect(mmd).toContain(TITLE);
    for (const heading of ['Introduction', 'The heat equation', 'Boundary conditions', 'Measurements', 'Conclusion'])
      expect(mmd).toMatch(new RegExp(`^#+ (\\d )?${heading}$`, 'm'));
    expect(mmd).toContain(SENTENCE); // wrapped lines joined into one paragraph
    expect(mmd).toContain('\\( \\kappa \\)'); // inline maths from the maths font, as LaTeX
    expect((await call('GET', `/v3/converter/${id}`)).json.conversion_status).toEqual(
      Object.fromEntries(Object.keys(formats).map((f) => [f, { status: 'completed' }])),
    );

    const docx = await unzip(dir, (await call('GET', `/v3/pdf/${id}.docx`)).buf, 'paper.docx');
    const documentXml = await readFile(join(docx, 'word/document.xml'), 'utf8');
    expect(documentXml).toContain(TITLE);
    expect(documentXml).toContain('<m:oMath'); // \(\kappa\) became a Word equation
    expect((await call('GET', `/v3/pdf/${id}.html`)).text).toMatch(/<math[^>]*>.*κ/s);
    const tex = await unzip(dir, (await call('GET', `/v3/pdf/${id}.tex.zip`)).buf, 'paper.tex.zip');
    await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'document.tex'], { cwd: tex });
    expect(await pdfText(dir, await readFile(join(tex, 'document.pdf')), 'from-zip.pdf')).toContain(TITLE);
    expect(await pdfText(dir, (await call('GET', `/v3/pdf/${id}.latex.pdf`)).buf, 'latex.pdf')).toContain('Measurements');
    expect(await pdfText(dir, (await call('GET', `/v3/pdf/${id}.pdf`)).buf, 'html.pdf')).toContain('Measurements');
    const pptx = await unzip(dir, (await call('GET', `/v3/pdf/${id}.pptx`)).buf, 'paper.pptx');
    expect(await readFile(join(pptx, 'ppt/presentation.xml'), 'utf8')).toContain('<p:presentation');
  });

  it('reads the display equations and inline sums of the paper as LaTeX (PDF glyphs → layout parser)', async () => {
    const { mmd } = await read(fx.pdf, 'paper.pdf');
    const displays = [...mmd.matchAll(/\\\[([\s\S]*?)\\\]/g)].map((m) => normaliseLatex(m[1]!));
    const inline = [...mmd.matchAll(/\\\(([\s\S]*?)\\\)/g)].map((m) => normaliseLatex(m[1]!));
    const has = (list: string[], latex: string) =>
      expect(
        list.some((l) => l.includes(normaliseLatex(latex))),
        `${latex} in ${JSON.stringify(list)}`,
      ).toBe(true);
    has(displays, String.raw`\frac{\partial u}{\partial t}=\kappa\frac{\partial^{2}u}{\partial x^{2}}`);
    has(displays, String.raw`k_{n}=\frac{n\pi}{L}`);
    has(inline, String.raw`u(x,t)=e^{-\kappa k^{2}t}\sin(kx)`);
    has(inline, String.raw`\sum_{n=1}^{\infty}a_{n}^{2}e^{-2\kappa k_{n}^{2}t}`);
  });

  it('reads the measurements tabular as an MMD table (and so into xlsx)', async () => {
    const { id, mmd } = await read(fx.pdf, 'paper.pdf', { conversion_formats: { xlsx: true } });
    const rows = ['Mode & Decay time & Error', '1 & 12.5 & 0.3', '2 & 3.1 & 0.1', '3 & 1.4 & 0.1'].map((r) => `\\hline ${r} \\\\`);
    expect(mmd).toContain(['\\begin{tabular}{|l|c|c|}', ...rows, '\\hline', '\\end{tabular}'].join('\n'));
    expect(mmd).not.toMatch(/^[12]$/m); // the page numbers are page furniture
    expect((await call('GET', `/v3/converter/${id}`)).json.conversion_status).toEqual({ xlsx: { status: 'completed' } });
    const xlsx = await unzip(dir, (await call('GET', `/v3/pdf/${id}.xlsx`)).buf, 'paper.xlsx');
    const sheet = await readFile(join(xlsx, 'xl/worksheets/sheet1.xml'), 'utf8');
    expect(sheet).toContain('<c r="B2"><v>12.5</v></c>');
    expect(sheet).toContain('<c r="C4"><v>0.1</v></c>');
  });

  it('reads the scanned copy through the inference pool', async () => {
    const { done, mmd } = await read(fx.scanned, 'scan.pdf', {}, 150_000);
    expect(done).toMatchObject({ num_pages: 2, num_pages_completed: 2 });
    expect(mmd).toContain(TITLE);
    // Its section headings are headings, as on the born-digital paper: numbered, standing alone.
    for (const heading of ['Introduction', 'The heat equation', 'Boundary conditions', 'Measurements', 'Conclusion'])
      expect(mmd, mmd).toMatch(new RegExp(`^#+ (\\d )?${heading}$`, 'm'));
    expect(mmd).toContain('The measured decay times agree with the predicted ratio');
    // The page numbers at the foot of each scanned page are furniture, left out as on the born-digital paper.
    expect(mmd, mmd).not.toMatch(/\\\[\n[12]\n\\\]|\n[12]$/);
  }, 180_000);

  it('reads the DOCX and the EPUB pandoc made from the same LaTeX, their equations included', async () => {
    for (const [file, name] of [
      [fx.docx, 'paper.docx'],
      [fx.epub, 'paper.epub'],
    ] as const) {
      const { mmd } = await read(file, name, {}, 90_000);
      expect(mmd, name).toContain(TITLE);
      expect(mmd, name).toMatch(/^#+ .*Measurements$/m);
      expect(mmd, name).toContain('Table 1 lists the measured decay times of the first three modes.');
      // Word equations are read from the file (pandoc), not from LibreOffice's rendering, which drops them.
      expect(mmd, name).toContain('diffusion constant as \\( \\kappa \\) and the length of the rod as \\( L \\)');
      expect(mmd, name).toMatch(/\\\[\n\\frac\{\\partial u\}\{\\partial t\}=\\kappa/);
    }
  }, 180_000);

  it("converts the paper's MMD with maths and a table into docx, html, tex.zip, both PDFs, pptx and xlsx", async () => {
    const formats = { docx: true, html: true, 'tex.zip': true, 'latex.pdf': true, pdf: true, pptx: true, xlsx: true };
    const res = await call('POST', '/v3/converter', { json: { mmd: PAPER_MMD, formats } });
    expect(res.status, res.text).toBe(200);
    const id = res.json.conversion_id as string;
    const status = await waitFor(
      async () => {
        const s = (await call('GET', `/v3/converter/${id}`)).json.conversion_status as Record<string, { status: string }>;
        return Object.values(s).every((f) => ['completed', 'error'].includes(f.status)) && s;
      },
      60_000,
      250,
    );
    expect(status).toEqual(Object.fromEntries(Object.keys(formats).map((f) => [f, { status: 'completed' }])));
    const docx = await unzip(dir, (await call('GET', `/v3/converter/${id}.docx`)).buf, 'c.docx');
    expect(await readFile(join(docx, 'word/document.xml'), 'utf8')).toMatch(/<m:oMathPara>.*<m:f>/s); // display fraction
    expect((await call('GET', `/v3/converter/${id}.html`)).text).toMatch(/<math display="block".*<mfrac>/s);
    const latexPdf = await pdfText(dir, (await call('GET', `/v3/converter/${id}.latex.pdf`)).buf, 'c-latex.pdf');
    expect(latexPdf).toContain('∂u');
    expect(latexPdf).toContain('Decay time');
    const xlsx = await unzip(dir, (await call('GET', `/v3/converter/${id}.xlsx`)).buf, 'c.xlsx');
    expect(await readFile(join(xlsx, 'xl/worksheets/sheet1.xml'), 'utf8')).toContain('<c r="B2"><v>12.5</v></c>');
  });

  it('reports a LaTeX compile failure on latex.pdf honestly and sends no file', async () => {
    const res = await call('POST', '/v3/converter', {
      json: { mmd: 'Prose with a raw \\undefinedcommand in it.\n', formats: { 'latex.pdf': true, html: true } },
    });
    const id = res.json.conversion_id as string;
    const status = await waitFor(
      async () => {
        const s = (await call('GET', `/v3/converter/${id}`)).json.conversion_status;
        return s['latex.pdf'].status !== 'received' && s['latex.pdf'].status !== 'processing' && s;
      },
      30_000,
      250,
    );
    expect(status['latex.pdf']).toMatchObject({
      status: 'error',
      error_id: 'sys_exception',
      error_message: expect.stringContaining('pdflatex could not compile the document'),
    });
    expect(status.html).toEqual({ status: 'completed' });
    const download = await call('GET', `/v3/converter/${id}.latex.pdf`);
    expect(download.status).toBe(404);
    expect(download.json.error).toBe('format_not_ready');
  });
});
