import { compileLatex } from '../../engine/math/pdf/test-pdf.ts';
import { convertDocument } from './index.ts';
import { MATH_PAGE_BODY } from './math-fixture.ts';
const pdf = await compileLatex(process.argv[2] ?? MATH_PAGE_BODY);
const r = await convertDocument(pdf.path, {}, { parseMath: (s) => ({ latex: `<${s.map((x) => x.latex).join(' ')}>`, confidence: 1, boxes: [] }) });
console.log(r.mmd);
for (const l of r.linesJson.pages[0].lines) console.log(l.type, JSON.stringify(l.region), l.text.slice(0, 60));
await pdf.cleanup();
