import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { renderLatex, startMathStack } from './v3-math-support.js';

/** The legacy batch read by the real inference worker: images served over HTTP, results polled. */

const FORMULAS = { f1: 'x^{2}+y^{2}=\\frac{a}{b}', f2: '\\sqrt{x+1}=\\frac{y}{2}' };

describe('POST/GET /v3/batch (real inference worker)', () => {
  let s: Awaited<ReturnType<typeof startMathStack>>;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    s = await startMathStack();
    const images: Record<string, Buffer> = {};
    for (const [k, tex] of Object.entries(FORMULAS)) images[`/${k}.png`] = await renderLatex(`\\[ ${tex} \\]`);
    images['/prose.png'] = await renderLatex('\\noindent A short sentence about the weather in the mountains.', 150, 7);
    server = createServer((req, res) => (images[req.url!] ? res.end(images[req.url!]) : res.writeHead(404).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    server?.close();
    await s?.stop();
  });

  const poll = async (batchId: string, n: number) => {
    for (let i = 0; i < 600; i++) {
      const r = await s.call('GET', `/v3/batch/${batchId}`);
      if (Object.keys(r.body.results).length >= n) return r.body;
      await new Promise((res) => setTimeout(res, 100));
    }
    throw new Error(`batch ${batchId} did not settle: ${s.workerLog()}`);
  };

  it('reads every image as LaTeX (ocr_behavior latex) and keeps a missing one as its error', async () => {
    const r = await s.call('POST', '/v3/batch', {
      urls: { f1: `${base}/f1.png`, f2: { url: `${base}/f2.png`, formats: ['latex_styled', 'asciimath'] }, gone: `${base}/gone.png` },
      formats: ['latex_styled'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await poll(r.body.batch_id, 3);
    expect(done.keys).toEqual(['f1', 'f2', 'gone']);
    expect(normaliseLatex(done.results.f1.latex_styled)).toBe(normaliseLatex(FORMULAS.f1));
    expect(normaliseLatex(done.results.f2.latex_styled)).toBe(normaliseLatex(FORMULAS.f2));
    expect(done.results.f2.asciimath).toMatch(/sqrt/);
    expect(done.results.gone.error).toBe('image_download_error');
  });

  it('reads images as /v3/text with ocr_behavior text', async () => {
    const r = await s.call('POST', '/v3/batch', {
      ocr_behavior: 'text',
      urls: { f1: `${base}/f1.png`, prose: `${base}/prose.png` },
      formats: ['text', 'latex_styled'],
    });
    const done = await poll(r.body.batch_id, 2);
    expect(normaliseLatex(done.results.f1.latex_styled)).toBe(normaliseLatex(FORMULAS.f1));
    expect(done.results.prose.text).toContain('weather in the mountains');
    expect(done.results.prose.latex_styled).toBeUndefined();
  });
});
