import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { checkZipExpansion } from './office.js';

const run = promisify(execFile);

/**
 * The formulas of an ODT file. Writer keeps each one as an embedded object holding MathML
 * (`Formula-0/content.xml`), drawn in a `draw:frame` where it stands; pandoc's ODT reader skips
 * those frames. So each frame is swapped for a marker word, pandoc reads the text with the
 * markers in place, and pandoc's HTML reader turns each MathML into LaTeX (texmath, as for EPUB).
 */

export interface OdtFormula {
  latex: string;
  display: boolean;
}

/** The marker word standing for formula `i` in the text pandoc reads. */
export const FORMULA_MARKER = /FOLIOFORMULA(\d+)X/g;

const FRAME = /<draw:frame\b[^>]*>(?:(?!<\/draw:frame>)[\s\S])*?<draw:object\b[^>]*?xlink:href="(?:\.\/)?([^"/]+)\/?"[\s\S]*?<\/draw:frame>/g;

/** pandoc's JSON of the ODT with its formulas as markers, and the formulas; undefined without any. */
export async function readOdt(path: string, timeoutMs: number): Promise<{ json: string; formulas: OdtFormula[] } | undefined> {
  await checkZipExpansion(path, 'odt');
  const files = unzipSync(await readFile(path));
  const content = files['content.xml'];
  if (!content) return undefined;
  const mathml: string[] = [];
  const marked = strFromU8(content).replace(FRAME, (frame, object: string) => {
    const inner = files[`${object}/content.xml`];
    const math = inner && /<math[\s>][\s\S]*<\/math>/.exec(strFromU8(inner))?.[0];
    if (!math) return frame;
    mathml.push(math);
    return `FOLIOFORMULA${mathml.length - 1}X`;
  });
  if (!mathml.length) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'folio-odt-'));
  try {
    const odt = join(dir, 'marked.odt');
    await writeFile(odt, zipSync({ ...files, 'content.xml': strToU8(marked) }));
    const html = join(dir, 'formulas.html');
    await writeFile(html, `<html><body>${mathml.map((m) => `<p>${m}</p>`).join('\n')}</body></html>`);
    const opts = { timeout: timeoutMs, killSignal: 'SIGKILL' as const, maxBuffer: 256 * 1024 * 1024 };
    const [{ stdout: json }, { stdout: maths }] = await Promise.all([
      run('pandoc', ['-f', 'odt', '-t', 'json', odt], opts),
      run('pandoc', ['-f', 'html', '-t', 'json', html], opts),
    ]);
    return { json, formulas: formulasOf(JSON.parse(maths) as { blocks: unknown[] }, mathml.length) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each paragraph of the formula page holds one formula; one pandoc could not read stays empty. */
function formulasOf(doc: { blocks: unknown[] }, count: number): OdtFormula[] {
  const out: OdtFormula[] = Array.from({ length: count }, () => ({ latex: '', display: false }));
  doc.blocks.slice(0, count).forEach((block, i) => {
    const math = ((block as { c?: unknown[] }).c ?? []).find((n) => (n as { t?: string }).t === 'Math') as { c: [{ t: string }, string] } | undefined;
    if (math) out[i] = { latex: math.c[1], display: math.c[0].t === 'DisplayMath' };
  });
  return out;
}
