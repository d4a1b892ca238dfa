import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { SMILES_ELEMENT } from '../../../core/chemistry.js';
import { compileLatex } from '../../../test/support/latex-pdf.js';
import { childCpuSeconds } from '../../../worker/chemistry/osra.js';
import { convertDocument } from '../../../worker/document/pipeline/index.js';
import { DISTRACTOR_KINDS } from './distractors.js';
import { HELDOUT_KINDS } from './heldout.js';
import type { Molecule } from './render.js';

/**
 * Pages as /v3/pdf reads them: a pdflatex paper whose pages each hold two RDKit structure drawings
 * and two other figures (a plot, geometry, a table, a circuit, a flow chart) between paragraphs,
 * one figure a row, in a shuffled order. The product pipeline (convertDocument with include_smiles)
 * finds the figures and decides; each figure's answer is matched to what was drawn by its order
 * on the page.
 */

export interface PagesOutcome {
  pages: number;
  structures: number;
  others: number;
  /** Figures answered as `<smiles>`. */
  reported: number;
  /** Of those, how many stand where a structure was drawn. */
  truePositives: number;
  /** Of the true positives, how many have the exact canonical SMILES. */
  exact: number;
  /** CPU seconds per page: the pipeline's own (this process) and its programs' (OSRA, Open Babel, pdftoppm, ...). */
  cpuPerPage: { own: number; programs: number };
  /** The other figures were the held-out distractors (heldout.ts). */
  heldout: boolean;
}

/** As /v3/pdf's page limit, and more: a loaded evaluation machine must not fail pages on time. */
const PAGE_TIMEOUT_MS = 600_000;

const PROSE =
  'The compounds were prepared as described in the methods section and characterised by NMR and mass spectrometry. Yields are reported after purification by column chromatography.';

/** One figure item of the MMD, in order: a smiles element or an image. */
const FIGURE_ITEM = /<smiles(?:\s[^>]*)?>([^<]*)<\/smiles>|!\[[^\]]*\]\([^)]*\)/g;

/** With `heldout`, the other figures are the held-out distractors (heldout.ts, already rendered at 300 dpi). */
export async function evaluatePages(cacheDir: string, molecules: Molecule[], pages: number, heldout = false): Promise<PagesOutcome> {
  const kinds: readonly string[] = heldout ? HELDOUT_KINDS : DISTRACTOR_KINDS;
  const files: Record<string, Buffer> = {};
  const expected: (Molecule | null)[] = [];
  let body = '';
  for (let p = 0; p < pages; p++) {
    const items: (Molecule | string)[] = [
      molecules[(2 * p) % molecules.length]!,
      molecules[(2 * p + 1) % molecules.length]!,
      kinds[(2 * p) % kinds.length]!,
      kinds[(2 * p + 1) % kinds.length]!,
    ];
    const order = [p % 4, (p + 2) % 4, (p + 1) % 4, (p + 3) % 4];
    body += `\\section*{Results ${p + 1}}\n${PROSE}\n\n`;
    for (const i of order) {
      const item = items[i]!;
      const path =
        typeof item === 'string'
          ? join(cacheDir, heldout ? 'heldout-300' : 'distractors-300', `${item}-${p % (heldout ? 5 : 10)}.png`)
          : join(cacheDir, 'rdkit-300', `${item.id}.png`);
      const png = await readFile(path);
      const { width = 1 } = await sharp(png).metadata();
      const name = `f${p}-${i}.png`;
      files[name] = png;
      body += `\\begin{center}\\includegraphics[width=${(width / 300).toFixed(3)}in]{${name}}\\end{center}\n\n${PROSE}\n\n`;
      expected.push(typeof item === 'string' ? null : item);
    }
    body += '\\newpage\n';
  }
  const pdf = await compileLatex(body, { packages: 'graphicx', files });
  try {
    const sink = { prefix: 'eval', save: async () => undefined, link: (name: string) => `${name}.jpg` };
    const [ownBefore, programsBefore] = [process.cpuUsage(), childCpuSeconds()];
    const result = await convertDocument(pdf.path, { chemistry: { smiles: true }, pageTimeoutMs: PAGE_TIMEOUT_MS }, { figures: sink });
    const own = process.cpuUsage(ownBefore);
    const cpuPerPage = { own: (own.user + own.system) / 1e6 / pages, programs: (childCpuSeconds() - programsBefore) / pages };
    const failed = result.pages.filter((p) => p.status !== 'completed');
    if (failed.length) console.log(`  pages: ${failed.length} failed (${failed.map((p) => p.error_id).join(', ')})`);
    const items = [...result.mmd.matchAll(FIGURE_ITEM)];
    const reported = items.filter((m) => m[0].startsWith('<smiles')).length;
    let truePositives = 0;
    let exact = 0;
    if (items.length === expected.length) {
      items.forEach((m, i) => {
        if (!m[0].startsWith('<smiles') || !expected[i]) return;
        truePositives++;
        if (m[1] === expected[i]!.canonical) exact++;
      });
    } else {
      // Figures merged or missed: count what can be counted without positions.
      const found = [...result.mmd.matchAll(SMILES_ELEMENT)].map((m) => m[1]);
      truePositives = Math.min(reported, expected.filter(Boolean).length);
      exact = found.filter((s) => expected.some((e) => e?.canonical === s)).length;
      console.log(`  pages: ${items.length} figures answered for ${expected.length} drawn; positions not matched`);
    }
    return {
      pages,
      structures: expected.filter(Boolean).length,
      others: expected.filter((e) => !e).length,
      reported,
      truePositives,
      exact,
      cpuPerPage,
      heldout,
    };
  } finally {
    await pdf.cleanup();
  }
}
