import { parentPort } from 'node:worker_threads';
import { ApiError } from '../../../core/errors.js';
import { openPdfFile, readPage, type OpenedPdf } from './pdf.js';

/**
 * The thread a PdfReader (pdf-reader.ts) runs pdf.js in: it opens one PDF at a time by ranges and
 * reads the pages it is asked for. Terminating the thread is how a page's clock stops pdf.js,
 * which has no way to cancel a page. Between documents the thread waits, warm, for the next.
 */

export type ThreadRequest = { type: 'open'; path: string } | { type: 'page'; n: number; wantLinks: boolean } | { type: 'close' };
export type ThreadError = { id?: string; message: string };
export type ThreadReply =
  | { type: 'opened'; numPages: number }
  | { type: 'page'; content: Awaited<ReturnType<typeof readPage>> }
  | { type: 'closed' }
  | { type: 'error'; error: ThreadError };

/**
 * pdf.js keeps every range of the file it has read until the document is destroyed: past this
 * many bytes read, the document is opened again before its next page, so memory follows the
 * largest page rather than the document's size.
 */
const REOPEN_AFTER_BYTES = 64 * 1024 * 1024;

const port = parentPort!;
let path = '';
let pdf: OpenedPdf | undefined;

async function handle(req: ThreadRequest): Promise<ThreadReply> {
  if (req.type === 'close') {
    await pdf?.close();
    pdf = undefined;
    return { type: 'closed' };
  }
  if (req.type === 'open') {
    await pdf?.close();
    pdf = undefined;
    path = req.path;
    pdf = await openPdfFile(path);
    return { type: 'opened', numPages: pdf.doc.numPages };
  }
  if (!pdf) pdf = await openPdfFile(path);
  const page = await pdf.doc.getPage(req.n);
  try {
    return { type: 'page', content: await readPage(page, req.wantLinks) };
  } finally {
    page.cleanup();
    if (pdf.bytesRead() > REOPEN_AFTER_BYTES) {
      await pdf.close();
      pdf = undefined;
    }
  }
}

port.on('message', (req: ThreadRequest) => {
  handle(req).then(
    (reply) => port.postMessage(reply),
    (err) =>
      port.postMessage({
        type: 'error',
        error: err instanceof ApiError ? { id: err.id, message: err.message } : { message: (err as Error)?.message ?? String(err) },
      } satisfies ThreadReply),
  );
});
