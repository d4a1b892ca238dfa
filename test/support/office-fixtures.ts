import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A real DOCX made by Debian's LibreOffice from a small HTML page with a heading and a paragraph. */
export async function docxFile(heading: string, paragraph: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-docx-'));
  try {
    await writeFile(join(dir, 'note.html'), `<html><body><h1>${heading}</h1><p>${paragraph}</p></body></html>`);
    await run(
      'soffice',
      ['--headless', `-env:UserInstallation=file://${join(dir, 'profile')}`, '--convert-to', 'docx:MS Word 2007 XML', '--outdir', dir, join(dir, 'note.html')],
      { timeout: 120_000 },
    );
    return await readFile(join(dir, 'note.docx'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
