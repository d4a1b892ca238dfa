/** Model and pipeline identifiers reported in every response's `version` and by /pco/v1/status. */
export const OCR_VERSION = 'folio-ocr-0.1.0';
export const PDF_VERSION = 'folio-pdf-0.1.0';
/** The wire contract of /pco/v1; bump on incompatible change. */
export const API_VERSION = 1;
