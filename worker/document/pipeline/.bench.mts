import { compileLatex, openTestPdf } from '../../engine/math/pdf/test-pdf.ts';
import { readPdfMath } from '../../engine/math/pdf/index.ts';
import { groupDisplayMath } from './math-regions.ts';
import { readPage } from './pdf.ts';
import { glyphsToLines } from './text-layer.ts';
import { MATH_PAGE_BODY } from './math-fixture.ts';
const pdf = await compileLatex(Array(10).fill(MATH_PAGE_BODY + '\n\n' + MATH_PAGE_BODY).join('\n\\newpage\n'));
const doc = await openTestPdf(pdf.path);
let tRead = 0, tMath = 0, tGroup = 0;
for (let n = 1; n <= doc.numPages; n++) {
  const page = await doc.getPage(n);
  let t = performance.now();
  const content = await readPage(page, false);
  tRead += performance.now() - t;
  const ops = await page.getOperatorList();
  t = performance.now();
  const m = await readPdfMath(page, ops);
  tMath += performance.now() - t;
  t = performance.now();
  groupDisplayMath(glyphsToLines(content.glyphs), m);
  tGroup += performance.now() - t;
}
console.log('pages', doc.numPages, 'readPage(incl. maths) ms/page', (tRead / doc.numPages).toFixed(1), 'readPdfMath ms/page', (tMath / doc.numPages).toFixed(1), 'group ms/page', (tGroup / doc.numPages).toFixed(2));
await pdf.cleanup();
