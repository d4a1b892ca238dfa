import { PDFDocument } from 'pdf-lib';
import type { ScoredFormula } from '../../worker/engine/math/eval-metrics.js';
import { spawnAppliance } from '../../test/support/appliance.js';
import { waitFor } from '../../test/support/ports.js';
import type { Formula } from './corpus.js';
import type { Evaluation } from './evaluate.js';
import type { Parts } from './front-ends.js';
import { noisyScans, pngOfPgm, type PageImage } from './noisy-scans.js';
import { idiomaticSpelling } from '../../page/render/eqn-arrays.js';
import type { RenderedCorpus, RenderedFormula } from './render.js';

/**
 * Product rows: the formulas the image rows read, sent as a user sends them to a running
 * appliance (a real process with its own Redis and inference worker, test/support/appliance.ts),
 * with default options:
 * - `/v3/text`: the 150 dpi crop as a PNG; the answer's `text`;
 * - `/v3/pdf`, scanned: every crop as the only content of one page of an image-only PDF (no text
 *   layer), read by the document pipeline; each page's MMD from `lines.mmd.json`;
 * - `/v3/pdf`, noisy scan: the same with each crop as a scanner takes it (noisy-scans.ts, the
 *   same pixels as the engine's noisy row).
 * A page's answer counts as the formula when it is exactly one maths element (inline or display
 * delimiters) and its LaTeX normalises to the formula's; anything else (prose, several pieces, a
 * math_confidence error) is wrong. The spec's default answer writes `cases`, `aligned` and
 * `gathered` as arrays (idiomatic_eqn_arrays false): they are read back as those environments
 * before normalising (page/render/eqn-arrays.ts), so the row scores recognition, not the option.
 */

export const PRODUCT_DPI = 150;
/** Longest wait for the scanned PDF, per page. */
const PDF_MS_PER_PAGE = 5_000;

/** The LaTeX of an answer that is one maths element, else the answer as it is (which then fails to match). */
export function answerLatex(mmd: string): string {
  const text = mmd.trim();
  const one = /^\\\(\s*([\s\S]*?)\s*\\\)$/.exec(text) ?? /^\\\[\s*([\s\S]*?)\s*\\\]$/.exec(text);
  if (!one || /\\[()[\]]/.test(one[1]!)) return text;
  return idiomaticSpelling(one[1]!);
}

function scored(formula: Formula, parts: Parts, answer: string, ms: number, error?: string): ScoredFormula {
  const row: ScoredFormula = { id: formula.id, category: formula.category, source: formula.latex, expected: parts.normaliseLatex(formula.latex), got: '', ms };
  if (error) row.error = error;
  else row.got = parts.normaliseLatex(answerLatex(answer));
  return row;
}

/** The product rows over `formulas` of the rendered corpus. */
export async function evaluateProduct(rendered: RenderedCorpus, formulas: readonly Formula[], parts: Parts): Promise<Evaluation[]> {
  const ids = new Set(formulas.map((f) => f.id));
  const items = rendered.formulas.filter((r) => ids.has(r.formula.id));
  const env = { FOLIO_INFERENCE_WORKERS: '1', FOLIO_TEXT_REQUESTS_MAX: '1' };
  // A loaded machine may take minutes to start it.
  const app = await spawnAppliance(env, { startTimeoutMs: 300_000 });
  try {
    const call = async (method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; form?: FormData } = {}) => {
      const res = await fetch(`${app.url}${path}`, {
        method,
        headers: { ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
        body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const made = await call('POST', '/pco/v1/apps', { json: { name: `eval-${Date.now()}` } });
    const key = await call('POST', `/pco/v1/apps/${made.body.app_id}/keys`);
    const auth = { app_id: made.body.app_id as string, app_key: key.body.app_key as string };

    const images = await Promise.all(items.map((item) => pngOfPgm(item.crops[PRODUCT_DPI].path)));
    const text: ScoredFormula[] = [];
    const send = (png: Buffer) => call('POST', '/v3/text', { headers: auth, json: { src: `data:image/png;base64,${png.toString('base64')}` } });
    await send(images[0]!.png); // warm-up, untimed
    for (const [i, item] of items.entries()) {
      const start = performance.now();
      const r = await send(images[i]!.png);
      const ms = performance.now() - start;
      // A math_confidence answer is the product refusing the image: wrong, not an error of the harness.
      text.push(scored(item.formula, parts, r.status === 200 ? String(r.body.text ?? '') : `(${r.status} ${r.body?.error_info?.id ?? r.body?.error})`, ms));
    }

    const scanned = await readScannedPdf(call, auth, images, items, parts);
    const noisyScanned = await readScannedPdf(call, auth, await noisyScans(images), items, parts);
    return [
      { frontEnd: `/v3/text PNG ${PRODUCT_DPI} dpi`, rows: text },
      { frontEnd: `/v3/pdf scanned ${PRODUCT_DPI} dpi`, rows: scanned },
      { frontEnd: `/v3/pdf noisy scan ${PRODUCT_DPI} dpi`, rows: noisyScanned },
    ];
  } finally {
    await app.stop();
  }
}

type Call = (method: string, path: string, init?: { headers?: Record<string, string>; form?: FormData }) => Promise<{ status: number; body: any }>;

/** `images` as the pages of one image-only PDF through `/v3/pdf`, each page scored as its formula. */
async function readScannedPdf(
  call: Call,
  auth: Record<string, string>,
  images: readonly PageImage[],
  items: readonly RenderedFormula[],
  parts: Parts,
): Promise<ScoredFormula[]> {
  const pdf = await PDFDocument.create();
  for (const image of images) {
    const embedded = await pdf.embedPng(image.png);
    const [w, h] = [(image.width * 72) / PRODUCT_DPI, (image.height * 72) / PRODUCT_DPI];
    pdf.addPage([w, h]).drawImage(embedded, { x: 0, y: 0, width: w, height: h });
  }
  const form = new FormData();
  form.append('file', new Blob([await pdf.save()], { type: 'application/pdf' }), 'formulas.pdf');
  const started = performance.now();
  const up = await call('POST', '/v3/pdf', { headers: auth, form });
  const status = await waitFor(
    async () => {
      const s = await call('GET', `/v3/pdf/${up.body.pdf_id}`, { headers: auth });
      return ['completed', 'error'].includes(s.body?.status) && s.body;
    },
    PDF_MS_PER_PAGE * items.length + 60_000,
    1_000,
  );
  const perPage = (performance.now() - started) / items.length;
  const lines = status.status === 'completed' ? await call('GET', `/v3/pdf/${up.body.pdf_id}.lines.mmd.json`, { headers: auth }) : null;
  const pages = new Map<number, string>(
    (lines?.body?.pages ?? []).map((p: { page: number; lines: { text: string }[] }) => [p.page, p.lines.map((l) => l.text).join('\n')]),
  );
  return items.map((item, i) =>
    status.status === 'completed'
      ? scored(item.formula, parts, pages.get(i + 1) ?? '', perPage)
      : scored(item.formula, parts, '', perPage, `the PDF ended in status ${status.status}`),
  );
}
