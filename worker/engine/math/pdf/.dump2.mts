import { readPdfMath, symbolsInRegion } from './index.ts';
import { compileLatex, openTestPdf } from './test-pdf.ts';
const pdf = await compileLatex(process.argv[2]);
const doc = await openTestPdf(pdf.path);
const m = await readPdfMath(await doc.getPage(1));
const r = (n: number) => n.toFixed(1);
for (const g of m.glyphs) if (g.font.family === 'extension') console.log('cmex code', g.code.toString(16), [g.box.y0, g.box.y1].map(r).join(' '));
for (const s of symbolsInRegion(m, { x0: 0, y0: 0, x1: 1000, y1: 1000 })) console.log(s.latex, s.style ?? '', [s.box.x0, s.box.y0, s.box.x1, s.box.y1].map(r).join(' '));
await pdf.cleanup();
