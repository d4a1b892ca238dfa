import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inlineFigures } from './convert-figures.js';
import { CONVERT_TIMEOUT_MS, PANDOC_FROM, pandoc } from './convert-pandoc.js';
import { FormatError, hasTool, runTool } from './convert-tool.js';

/** The HTML renderer: Debian's chromium prints MathML natively (Chromium 109 and later). */
export const CHROMIUM = 'chromium';
const PRINT_NAME = 'print.html';
const PDF_NAME = 'document.html.pdf';

/**
 * The page Chromium prints is built from MMD anyone can send, so it may load nothing: raw HTML
 * is read as text (no iframe of file:///etc/passwd, no script), and this policy blocks every
 * fetch, file:// included, but inline styles and data: images.
 */
const PRINT_HEAD = [
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`,
  '<style>@page { size: A4; margin: 20mm } body { max-width: none; margin: 0; padding: 0 } table { border-collapse: collapse } th, td { border: 1px solid #999; padding: 2px 6px }</style>',
  '',
].join('\n');

/**
 * Chromium flags for a one-shot offline print: no profile reuse, no background work, and a
 * second wall behind PRINT_HEAD: no name resolves, and every connection, loopback included
 * (<-loopback>), goes to a proxy that is not there.
 */
function chromiumArgs(dir: string): string[] {
  return [
    '--headless',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-extensions',
    '--disable-background-networking',
    '--disable-sync',
    '--disable-component-update',
    '--disable-dev-shm-usage',
    '--host-resolver-rules=MAP * ~NOTFOUND',
    '--proxy-server=socks5://0.0.0.0:9',
    '--proxy-bypass-list=<-loopback>',
    // Its sandbox needs user namespaces and refuses root; the page can load nothing (PRINT_HEAD) either way.
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    `--user-data-dir=${join(dir, 'chromium-profile')}`,
    '--no-pdf-header-footer',
    `--print-to-pdf=${join(dir, PDF_NAME)}`,
    `file://${join(dir, PRINT_NAME)}`,
  ];
}

/**
 * The `pdf` format: the MMD's HTML rendering (pandoc, maths as MathML) printed to A4 by headless
 * Chromium, as the hosted service's "PDF file with HTML rendering". `latex.pdf` is the LaTeX
 * rendering (convert-latex.ts). `figures` are the crops staged in images/ (convert-figures.ts).
 */
export async function printHtmlPdf(dir: string, figures: string[] = []): Promise<Buffer> {
  if (!hasTool(CHROMIUM)) throw new FormatError('unsupported_format', `This build cannot make pdf: ${CHROMIUM} is not installed`);
  await writeFile(join(dir, 'print-head.html'), PRINT_HEAD);
  await pandoc(
    dir,
    'html',
    PRINT_NAME,
    ['--standalone', '--mathml', '--metadata', 'pagetitle=Document', '--include-in-header', 'print-head.html'],
    `${PANDOC_FROM}-raw_html`,
  );
  // The page may load nothing but data: (PRINT_HEAD), so the staged crops go in as data: URIs.
  await inlineFigures(dir, PRINT_NAME, figures);
  // HOME in the scratch folder: Chromium writes caches and crash reports there, not in the worker's home.
  const run = await runTool(CHROMIUM, chromiumArgs(dir), { cwd: dir, timeoutMs: CONVERT_TIMEOUT_MS, env: { ...process.env, HOME: dir } });
  if (run.timedOut) throw new FormatError('sys_exception', `printing the HTML took longer than ${CONVERT_TIMEOUT_MS / 1000} s`);
  const pdf = await readFile(join(dir, PDF_NAME)).catch(() => null);
  if (!pdf?.subarray(0, 5).equals(Buffer.from('%PDF-')))
    throw new FormatError('sys_exception', `${CHROMIUM} printed no PDF (exit ${run.code}): ${run.output.trim().split('\n').slice(-1)[0] ?? ''}`);
  return pdf;
}
