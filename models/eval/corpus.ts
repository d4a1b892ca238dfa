import { readFile } from 'node:fs/promises';

/** The held-out formulas (formulas.tsv): written by hand, never by the training generator. */

export const CATEGORIES = ['algebra', 'calculus', 'linear-algebra', 'probability', 'physics', 'chemistry'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface Formula {
  id: string;
  category: Category;
  latex: string;
}

export interface Corpus {
  formulas: Formula[];
  /** The file's bytes as text: the render cache is keyed by its hash. */
  text: string;
}

const HEADER = 'id\tcategory\tlatex';

/** Reads and checks the corpus: the header, three tab-separated fields a row, unique ids, known categories. */
export async function readCorpus(path: string): Promise<Corpus> {
  const text = await readFile(path, 'utf8');
  const [header, ...lines] = text.split('\n').filter((line) => line.trim() !== '');
  if (header !== HEADER) throw new Error(`${path}: the first line must be "${HEADER}"`);
  const seen = new Set<string>();
  const formulas = lines.map((line, index) => {
    const fields = line.split('\t');
    const where = `${path}:${index + 2}`;
    if (fields.length !== 3 || fields.some((f) => f.trim() === '')) throw new Error(`${where}: expected id, category and LaTeX separated by tabs`);
    const [id, category, latex] = fields;
    if (seen.has(id)) throw new Error(`${where}: duplicate id ${id}`);
    if (!(CATEGORIES as readonly string[]).includes(category)) throw new Error(`${where}: unknown category ${category}`);
    seen.add(id);
    return { id, category: category as Category, latex };
  });
  return { formulas, text };
}
