import { SymbolClassifier } from './classifier.js';

/**
 * Scans' own symbol classifier. A scanner's blur thickens strokes to 3–4 px where a clean render
 * has 2, and takes the foot serif off a `1`, which the typeset classifier then reads `l`; its
 * grain and dust roughen every edge. `math-symbols-scan` is the typeset classifier fine-tuned on
 * renders degraded as a scanner degrades them besides its own training crops
 * (models/training/README.md, "Fine-tuned on scanned crops"). It reads an image only where
 * binarisation takes the scan path (paper noise, scan-noise.ts), so clean images are read exactly
 * as before: the same fine-tune as the one classifier of every image read three more clean
 * formulas wrong at 150 dpi.
 */
export const SCAN_MODEL_ID = 'math-symbols-scan';
export const SCAN_LABELS_ID = 'math-symbols-scan-labels';

export function loadScanClassifier(manifestPath?: string): Promise<SymbolClassifier> {
  return SymbolClassifier.load({ modelId: SCAN_MODEL_ID, labelsId: SCAN_LABELS_ID, manifestPath });
}
