import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError, envelope } from '../../../core/errors.js';
import { OPEN_PDF_STATUSES, type PdfRecord, type PdfStore } from '../../../core/v3/pdf-store.js';
import { pdfStatusView } from './views.js';

/** How often a stream looks for new pages. */
export const STREAM_POLL_MS = 250;
/**
 * Longest one stream stays open. An open response holds the HTTP server's shutdown, so a long
 * document's stream ends early and the client reconnects with Last-Event-ID (EventSource does).
 */
export const STREAM_MAX_MS = 60_000;

/**
 * GET /v3/pdf/{pdf_id}/stream: page results as server-sent events, for documents submitted with
 * streaming true (otherwise 400 bad_request). The spec leaves the event fields open; ours are:
 *
 * - `event: page`, `id: <n>` (0-based index in the stream), data
 *   `{"pdf_id", "page" (1-based page number in the PDF), "status": "completed"|"failed", "mmd",
 *   "error_info"?: {id, message}}` — one per processed page, in page order;
 * - `event: done`, data: the 2.5 status body — once, after the last page, when the document is
 *   completed or error; the stream then ends;
 * - `event: error`, data: the error envelope — the document was deleted meanwhile.
 *
 * A stream open for STREAM_MAX_MS ends without `done`; a client reconnecting with Last-Event-ID
 * resumes after that page. After a worker crash the document is redone and its pages may be sent
 * again.
 */
export function pdfStream(c: Context, store: PdfStore, rec: PdfRecord): Response {
  if (!rec.streaming) throw new ApiError('bad_request', 'This document was not submitted with streaming true');
  const last = Number(c.req.header('last-event-id'));
  let next = Number.isInteger(last) && last >= 0 ? last + 1 : 0;
  return streamSSE(c, async (s) => {
    const until = Date.now() + STREAM_MAX_MS;
    const sendPages = async () => {
      for (const page of await store.readPages(rec.pdf_id, next)) {
        await s.writeSSE({ event: 'page', id: String(next), data: JSON.stringify(page) });
        next++;
      }
    };
    while (!s.aborted && Date.now() < until) {
      await sendPages();
      const now = await store.get(rec.pdf_id);
      if (!now) {
        await s.writeSSE({ event: 'error', data: JSON.stringify(envelope('not_found', 'The document was deleted')) });
        return;
      }
      if (!OPEN_PDF_STATUSES.includes(now.status)) {
        await sendPages(); // pages are all written before the end state; pick up the last ones
        await s.writeSSE({ event: 'done', data: JSON.stringify(pdfStatusView(now)) });
        return;
      }
      await s.sleep(STREAM_POLL_MS);
    }
  });
}
