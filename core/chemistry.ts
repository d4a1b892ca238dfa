/**
 * Chemical structures as Folio reports them (spec 2.1: chemistry diagrams appear in MMD as
 * `<smiles>…</smiles>`), shared by the workers that read them (worker/chemistry/) and the surfaces
 * that write them (/v3/text, /v3/pdf, conversions).
 */

/** A structure diagram read from an image, in the image's pixels. */
export interface ChemicalStructure {
  /** Canonical SMILES (Open Babel's canonical form). */
  smiles: string;
  /** Standard InChI and InChIKey, when asked for (include_inchi) and Open Babel could make them. */
  inchi?: string;
  inchikey?: string;
  /** In [0,1]: how far the reader's own score for this structure clears the acceptance threshold. */
  confidence: number;
  box: { x: number; y: number; width: number; height: number };
}

/** What a request asks for about chemistry (4.2 include_smiles/include_inchi, 4.7 include_chemistry_as_image). */
export interface ChemistryOptions {
  /** Look for structure diagrams and write them as SMILES. */
  smiles: boolean;
  /** Add InChI and InChIKey as attributes of each smiles element. */
  inchi?: boolean;
  /** Write the diagram's crop with the SMILES as its alt text, instead of the smiles element. */
  asImage?: boolean;
  /** CPU time one OSRA run may use (FOLIO_OSRA_CPU_SECONDS). */
  cpuSeconds?: number;
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The MMD element of one structure: `<smiles>CCO</smiles>`, or with InChI `<smiles inchi="…" inchikey="…">CCO</smiles>`. */
export function smilesElement(s: Pick<ChemicalStructure, 'smiles' | 'inchi' | 'inchikey'>, withInchi = false): string {
  const attrs = withInchi
    ? [s.inchi && ` inchi="${escapeAttribute(s.inchi)}"`, s.inchikey && ` inchikey="${escapeAttribute(s.inchikey)}"`].filter(Boolean).join('')
    : '';
  return `<smiles${attrs}>${s.smiles}</smiles>`;
}

/** The MMD of a structure whose crop is shown instead (include_chemistry_as_image): the SMILES as alt text. */
export function smilesImage(s: Pick<ChemicalStructure, 'smiles'>, link: string): string {
  // A SMILES's brackets always pair, which Markdown alt text allows unescaped.
  return `![${s.smiles}](${link})`;
}

/** `<smiles>` elements of an MMD text (attributes allowed): what contains_chemistry looks for. */
export const SMILES_ELEMENT = /<smiles(?:\s[^>]*)?>([^<]*)<\/smiles>/g;
