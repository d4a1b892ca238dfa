import { pdfFolder } from '../../core/v3/keys.js';
import type { PdfRecord } from '../../core/v3/pdf-store.js';
import { PDF_VERSION } from '../../core/versions.js';
import type { MmdLineEntry, PageLines } from '../../page/render/lines-json.js';
import type { AppContext } from '../context.js';
import { improveFlag, type OcrHistory, type PdfPageRecord } from './ocr-history.js';

/**
 * The pages of a completed /v3/pdf document as image results: the hosted service's
 * GET /v3/ocr-results lists the results of /v3/text, /v3/pdf, /v3/strokes and /v3/latex alike, and
 * its pdf_id filter picks one document's pages. One 2.3 record per page: image_id
 * `<pdf_id>-<page>` (page numbers as lines.json gives them), endpoint /v3/pdf, the document's
 * request arguments, its processing time as duration, and as result the page's MMD (its part of
 * the document's, by the offsets of lines.mmd.json) with the version, or the page's error.
 * Files API documents are not /v3/pdf requests and stay out; so does a document whose metadata
 * set improve_* false.
 */
export async function recordPdfPages(ctx: Pick<AppContext, 'storage'>, history: OcrHistory, rec: PdfRecord): Promise<void> {
  if (rec.origin !== 'v3' || rec.status !== 'completed' || !improveFlag(rec.request_args.metadata)) return;
  const base = `${pdfFolder(rec.pdf_id)}${rec.pdf_id}`;
  const [mmd, linesJson] = await Promise.all([ctx.storage.readBuffer(`${base}.mmd`), ctx.storage.readBuffer(`${base}.lines.mmd.json`)]);
  const doc = mmd.toString('utf8');
  const text = new Map<number, string>();
  for (const page of (JSON.parse(linesJson.toString('utf8')) as { pages: PageLines<MmdLineEntry>[] }).pages) {
    const start = Math.min(...page.lines.map((l) => l.mmd_start));
    const end = Math.max(...page.lines.map((l) => l.mmd_end));
    text.set(page.page, page.lines.length ? doc.slice(start, end) : '');
  }
  const errors = new Map(rec.page_errors.map((e) => [e.page, e]));
  const pages = [...new Set([...text.keys(), ...errors.keys()])].sort((a, b) => a - b);
  const createdMs = Date.parse(rec.created_at);
  const records: PdfPageRecord[] = pages.map((page) => {
    const error = errors.get(page);
    return {
      imageId: `${rec.pdf_id}-${page}`,
      pdfId: rec.pdf_id,
      appId: rec.app_id,
      groupId: rec.group_id,
      endpoint: '/v3/pdf',
      requestArgs: rec.request_args,
      createdMs,
      durationMs: Date.parse(rec.modified_at) - createdMs,
      result: error
        ? { error: error.error_message, error_info: { id: error.error_id, message: error.error_message } }
        : { text: text.get(page) ?? '', version: PDF_VERSION },
      improve: true,
    };
  });
  history.recordPdfPages(records);
}
