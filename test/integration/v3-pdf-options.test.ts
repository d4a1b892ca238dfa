import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { compileLatex, type LatexPdf } from '../support/latex-pdf.js';
import { pcoClient } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';
import { scannedPdf } from '../support/scanned-fixtures.js';

/**
 * The output options of POST /v3/pdf (spec 4.7, rules of 4.2) through a running appliance:
 * - the equation options rm_spaces, rm_fonts, idiomatic_eqn_arrays and numbers_default_to_math.
 *   One pdflatex page holds inline maths in bold, an align* and a cases display, and a line that
 *   is only a number; it is sent once at default options and once with every option turned;
 * - alphabets_allowed and fullwidth_punctuation on a born-digital and a scanned page;
 * - auto_number_sections and remove_section_numbering on numbered and unnumbered sections.
 */
const PAGE = String.raw`For every vector $\mathbf{v} + dx$ the chain of equalities
\begin{align*}
f(x) &= (x+1)^2 - 1 \\
     &= x^2 + 2x
\end{align*}
holds, and the step function is
\[ s(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases} \]
which ends the page after the count of samples below.

\noindent 2026

\noindent The end, after 3 tries.`;

/** Two numbered sections, a subsection and an unnumbered section between them. */
const SECTIONS = String.raw`\section{Introduction}
The first words of the paper stand here, and then it goes on.
\subsection{Scope}
The scope is narrow; it ends here.
\section*{Background}
Some words of background follow in this part.
\section{Results}
The results close the page.`;

describe('/v3/pdf output options', () => {
  let app: ApplianceProcess;
  let auth: Record<string, string>;
  let pdf: LatexPdf;
  let sections: LatexPdf;

  beforeAll(async () => {
    pdf = await compileLatex(PAGE);
    sections = await compileLatex(SECTIONS);
    app = await spawnAppliance({}, { startTimeoutMs: 180_000 });
    auth = await pcoClient(app.url).newKey(`pdf-options-${Date.now()}`);
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    await pdf?.cleanup();
    await sections?.cleanup();
  });

  const submit = async (options: Record<string, unknown>, file: Buffer) => {
    const form = new FormData();
    form.append('options_json', JSON.stringify(options));
    form.append('file', new Blob([file], { type: 'application/pdf' }), 'page.pdf');
    return fetch(`${app.url}/v3/pdf`, { method: 'POST', headers: auth, body: form });
  };

  const mmdOf = async (options: Record<string, unknown>, file?: Buffer): Promise<string> => {
    const up = (await (await submit(options, file ?? (await readFile(pdf.path)))).json()) as { pdf_id: string };
    const status = await waitFor(
      async () => {
        const s = (await (await fetch(`${app.url}/v3/pdf/${up.pdf_id}`, { headers: auth })).json()) as { status: string };
        return ['completed', 'error'].includes(s.status) && s;
      },
      120_000,
      200,
    );
    expect(status).toMatchObject({ status: 'completed' });
    return (await fetch(`${app.url}/v3/pdf/${up.pdf_id}.mmd`, { headers: auth })).text();
  };

  it('writes arrays, no spaces and the fonts by default, and idioms, spaces and no fonts when asked', async () => {
    const plain = await mmdOf({});
    const turned = await mmdOf({ rm_spaces: false, rm_fonts: true, idiomatic_eqn_arrays: true, numbers_default_to_math: true });
    // idiomatic_eqn_arrays (default false): aligned and cases as arrays (rule 6).
    expect(plain).toContain('\\begin{array}{rl}');
    expect(plain).toMatch(/\\left\\\{\\begin\{array\}\{ll\}/);
    expect(plain).not.toMatch(/\\begin\{(aligned|cases)\}/);
    expect(turned).toContain('\\begin{aligned}');
    expect(turned).toContain('\\begin{cases}');
    // rm_spaces (default true): no space around operators inside the maths; false keeps them (rule 4).
    expect(plain).toContain('f(x)&=(x+1)^{2}-1');
    expect(turned).toContain('f(x) & =(x+1)^{2}-1');
    // rm_fonts (default false): the bold kept; true drops the command, keeping its letter.
    expect(plain).toMatch(/\\mathbf\{v\}/);
    expect(turned).not.toMatch(/\\math(bf|rm)/);
    expect(turned).toContain('\\( v+dx \\)');
    // numbers_default_to_math: every number of the prose is inline maths, a line's only word or not.
    expect(plain).toMatch(/ 2026 The end, after 3 tries\./);
    expect(turned).toContain(' \\( 2026 \\) The end, after \\( 3 \\) tries.');
  }, 300_000);

  /** The MMD's words: its inline and display maths left out. */
  const words = (mmd: string) => mmd.replace(/\\\[[\s\S]*?\\\]|\\\([\s\S]*?\\\)/g, ' ');

  it('checks alphabets_allowed when the request comes in', async () => {
    const res = await submit({ alphabets_allowed: { klingon: false } }, await readFile(pdf.path));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_info: { id: 'bad_request' } });
  });

  it('leaves the excluded alphabets out of the text, never the maths, and makes punctuation fullwidth, on both page kinds', async () => {
    const asked = { alphabets_allowed: { en: false }, fullwidth_punctuation: true };
    const born = await mmdOf(asked);
    expect(words(born)).not.toMatch(/[A-Za-z]/);
    expect(born).toContain('\\mathbf{v}+dx');
    expect(born).toContain('f(x)&=(x+1)^{2}-1');
    expect(born).toMatch(/，|．/);
    // A heading whose every letter was excluded is left out, not written empty.
    expect(await mmdOf(asked, await readFile(sections.path))).not.toMatch(/^#+ *$/m);
    const scan = await scannedPdf(await readFile(sections.path));
    expect(words(await mmdOf({}, scan))).toMatch(/Introduction/);
    const scanned = await mmdOf(asked, scan);
    expect(words(scanned)).not.toMatch(/[A-Za-z]/);
    expect(scanned).toMatch(/；|．|，/);
  }, 300_000);

  it('keeps printed section numbers by default, removes them or numbers every section when asked, on both page kinds', async () => {
    const file = await readFile(sections.path);
    const headings = async (options: Record<string, unknown>) => (await mmdOf(options, file)).split('\n').filter((l) => l.startsWith('#'));
    expect(await headings({})).toEqual(['## 1 Introduction', '### 1.1 Scope', '## Background', '## 2 Results']);
    // numbers_default_to_math is for prose: a section number stays as printed.
    expect(await headings({ numbers_default_to_math: true })).toEqual(await headings({}));
    expect(await headings({ remove_section_numbering: true })).toEqual(['## Introduction', '### Scope', '## Background', '## Results']);
    expect(await headings({ auto_number_sections: true })).toEqual(['## 1 Introduction', '### 1.1 Scope', '## 2 Background', '## 3 Results']);
    const scan = await scannedPdf(file);
    const scanned = async (options: Record<string, unknown>) => (await mmdOf(options, scan)).split('\n').filter((l) => l.startsWith('#'));
    // A scan may read a section number as a line of its own beside its title: the title takes the number.
    const removed = await scanned({ remove_section_numbering: true });
    expect(removed.find((h) => h.includes('Introduction'))).toBe('## Introduction');
    expect(removed.join('\n')).not.toMatch(/\d|# {2}/);
    const numbered = await scanned({ auto_number_sections: true });
    expect(numbered.find((h) => h.includes('Introduction'))).toBe('## 1 Introduction');
    expect(numbered.join('\n')).not.toMatch(/# {2}/);
  }, 300_000);
});
