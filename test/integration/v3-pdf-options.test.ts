import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApplianceProcess, spawnAppliance } from '../support/appliance.js';
import { compileLatex, type LatexPdf } from '../support/latex-pdf.js';
import { pcoClient } from '../support/pco-client.js';
import { waitFor } from '../support/ports.js';

/**
 * The equation options of POST /v3/pdf (spec 4.7, rules of 4.2) on a born-digital page, through a
 * running appliance: rm_spaces, rm_fonts, idiomatic_eqn_arrays and numbers_default_to_math. One
 * pdflatex page holds inline maths in bold, an align* and a cases display, and a line
 * that is only a number; it is sent once at default options and once with every option turned.
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

\noindent The end.`;

describe('/v3/pdf equation options on a born-digital page', () => {
  let app: ApplianceProcess;
  let auth: Record<string, string>;
  let pdf: LatexPdf;

  beforeAll(async () => {
    pdf = await compileLatex(PAGE);
    app = await spawnAppliance({}, { startTimeoutMs: 180_000 });
    auth = await pcoClient(app.url).newKey(`pdf-options-${Date.now()}`);
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    await pdf?.cleanup();
  });

  const mmdOf = async (options: Record<string, unknown>): Promise<string> => {
    const form = new FormData();
    form.append('options_json', JSON.stringify(options));
    form.append('file', new Blob([await readFile(pdf.path)], { type: 'application/pdf' }), 'page.pdf');
    const up = (await (await fetch(`${app.url}/v3/pdf`, { method: 'POST', headers: auth, body: form })).json()) as { pdf_id: string };
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
    expect(turned).toContain('\\(v+dx\\)');
    // numbers_default_to_math: a line that is only a number is inline maths.
    expect(plain).toMatch(/ 2026 The end\./);
    expect(turned).toContain(' \\( 2026 \\) The end.');
  }, 300_000);
});
