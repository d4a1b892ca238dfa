/** Schemes a /v3/pdf url may use ("HTTP URL", spec 4.7); the address checks apply to both. */
export const DOCUMENT_URL_SCHEMES = ['https:', 'http:'];

/**
 * The extension a document's stored and local copies get, from its filename or URL path (pdf
 * when there is none). The pipeline tells types by their bytes, but a file named .pdf that is
 * not one is reported as pdf_content_type rather than unsupported_format.
 */
export function sourceExtension(inputFile: string): string {
  let path = inputFile;
  if (/^https?:\/\//i.test(inputFile)) {
    try {
      path = new URL(inputFile).pathname;
    } catch {
      path = '';
    }
  }
  const m = /\.([a-z0-9]{1,8})$/i.exec(path);
  return m ? m[1]!.toLowerCase() : 'pdf';
}
