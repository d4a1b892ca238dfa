// The uploaded PDF's first page, drawn in the browser from the bytes the operator chose (pdf.js,
// already the appliance's PDF reader): the source beside the recognised MMD, no server route needed.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/** Draws page 1 of `data` into `canvas` at `width` CSS pixels; returns the page count. */
export async function drawFirstPage(data: ArrayBuffer, canvas: HTMLCanvasElement, width: number): Promise<number> {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
  try {
    const page = await doc.getPage(1);
    const scale = (width / page.getViewport({ scale: 1 }).width) * (window.devicePixelRatio || 1);
    const viewport = page.getViewport({ scale });
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.style.width = `${width}px`;
    await page.render({ canvas, viewport }).promise;
    return doc.numPages;
  } finally {
    void doc.destroy();
  }
}
