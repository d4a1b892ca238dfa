/** Content-Type of each output format a document produces: written by the workers, served by the appliance. */
export const CONTENT_TYPES: Record<string, string> = {
  mmd: 'text/markdown; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  'latex.pdf': 'application/pdf',
  'tex.zip': 'application/zip',
  'md.zip': 'application/zip',
  'mmd.zip': 'application/zip',
  'html.zip': 'application/zip',
  'lines.json': 'application/json',
  'lines.mmd.json': 'application/json',
};
