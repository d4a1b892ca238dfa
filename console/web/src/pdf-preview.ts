// Source pages drawn in the browser (pdf.js, already the appliance's PDF reader): the uploaded PDF on
// Try it, and a job's source document on the File page, each beside its recognised MMD.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/** An opened PDF whose pages can be drawn one at a time; destroy() when the page is left. */
export interface PdfPreview {
  readonly numPages: number;
  /** Draws page `n` (1-based) into `canvas` at `width` CSS pixels. */
  draw(n: number, canvas: HTMLCanvasElement, width: number): Promise<void>;
  destroy(): void;
}

export async function openPdf(data: ArrayBuffer): Promise<PdfPreview> {
  const pdfjs = await import('pdfjs-dist');
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
  let pending: { cancel(): void } | null = null;
  return {
    numPages: doc.numPages,
    async draw(n, canvas, width) {
      pending?.cancel(); // a newer choice of page wins over a render still running on the same canvas
      const page = await doc.getPage(Math.min(Math.max(1, n), doc.numPages));
      const scale = (width / page.getViewport({ scale: 1 }).width) * (window.devicePixelRatio || 1);
      const viewport = page.getViewport({ scale });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${width}px`;
      const task = page.render({ canvas, viewport });
      pending = task;
      try {
        await task.promise;
      } catch (err) {
        if ((err as Error).name !== 'RenderingCancelledException') throw err;
      } finally {
        if (pending === task) pending = null;
      }
    },
    destroy: () => void doc.destroy(),
  };
}

/** Draws page 1 of `data` into `canvas` at `width` CSS pixels; returns the page count. */
export async function drawFirstPage(data: ArrayBuffer, canvas: HTMLCanvasElement, width: number): Promise<number> {
  const pdf = await openPdf(data);
  try {
    await pdf.draw(1, canvas, width);
    return pdf.numPages;
  } finally {
    pdf.destroy();
  }
}
