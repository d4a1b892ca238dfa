import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseLatex } from '../../worker/engine/math/latex-normalise.js';
import { dataUrl, median, renderLatex, startMathStack } from './v3-math-support.js';

/** POST /v3/latex read by the real inference worker, on formulas and prose typeset by pdflatex. */

const FORMULA = '\\sqrt{x+1}=\\frac{y}{2}';

describe('POST /v3/latex (real inference worker)', () => {
  let s: Awaited<ReturnType<typeof startMathStack>>;
  let formula: Buffer;
  let page: Buffer;
  let receiver: Server;
  const hooks: any[] = [];

  beforeAll(async () => {
    s = await startMathStack();
    formula = await renderLatex(`\\[ ${FORMULA} \\]`);
    page = await renderLatex(
      '\\noindent The committee met on Tuesday to discuss the budget for next year,\\\\ and agreed to publish the minutes of the meeting in the spring.',
      150,
      7.5,
    );
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        hooks.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const warm = await s.call('POST', '/v3/latex', { src: dataUrl(formula), formats: ['latex_styled'] });
    expect(warm.status, JSON.stringify(warm.body) + s.workerLog()).toBe(200);
  }, 120_000);
  afterAll(async () => {
    receiver?.close();
    await s?.stop();
  });

  it('reads a formula: styled, normal and simplified LaTeX, asciimath, confidences', async () => {
    const times: number[] = [];
    let r!: Awaited<ReturnType<typeof s.call>>;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      r = await s.call('POST', '/v3/latex', { src: dataUrl(formula), formats: ['latex_styled', 'latex_simplified', 'text', 'asciimath'] });
      times.push(performance.now() - t0);
    }
    console.log(`/v3/latex one formula: median ${Math.round(median(times))} ms`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(normaliseLatex(r.body.latex_styled)).toBe(normaliseLatex(FORMULA));
    expect(normaliseLatex(r.body.latex_simplified)).toBe(normaliseLatex(FORMULA));
    expect(r.body.text).toBe(`\\( ${r.body.latex_styled} \\)`);
    expect(r.body.asciimath).toMatch(/sqrt/);
    expect(r.body.latex_confidence).toBeGreaterThan(0.1);
    expect(r.body.latex_confidence_rate).toBeGreaterThan(0.8);
    expect(r.body.detection_list).toEqual(['is_printed']);
  });

  it('lists n_best distinct candidates, the best first and equal to latex_styled', async () => {
    const r = await s.call('POST', '/v3/latex', { src: dataUrl(formula), formats: ['latex_styled'], beam_size: 5, n_best: 3 });
    expect(r.body.candidates).toHaveLength(3);
    expect(r.body.candidates[0].latex_styled).toBe(r.body.latex_styled);
    expect(new Set(r.body.candidates.map((c: { latex_styled: string }) => c.latex_styled)).size).toBe(3);
    const conf = r.body.candidates.map((c: { latex_confidence: number }) => c.latex_confidence);
    expect(conf[0]).toBeGreaterThanOrEqual(conf[1]);
  });

  it('reports prose as is_not_math and a blank image as is_blank', async () => {
    const prose = await s.call('POST', '/v3/latex', { src: dataUrl(page), formats: ['latex_styled'], ocr: ['math', 'text'] });
    expect(prose.body.detection_list).toContain('is_not_math');
    expect(prose.body.latex_styled).toContain('\\text{');
    const blank = await sharp({ create: { width: 200, height: 80, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const r = await s.call('POST', '/v3/latex', { src: dataUrl(blank), formats: ['latex_styled'] });
    expect(r.body.detection_map.is_blank).toBe(1);
    expect(r.body.latex_styled).toBe('');
  });

  it('delivers the result to a legacy callback', async () => {
    const post = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
    const r = await s.call('POST', '/v3/latex', { src: dataUrl(formula), formats: ['latex_styled'], callback: { post, reply: 'r1' } });
    expect(Object.keys(r.body)).toEqual(['session_id']);
    while (!hooks.length) await new Promise((res) => setTimeout(res, 20));
    expect(hooks[0].reply).toBe('r1');
    expect(normaliseLatex(hooks[0].result.latex_styled)).toBe(normaliseLatex(FORMULA));
  });
});
