import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RUNTIME_IMPORTS } from '../../core/runtime.js';

/**
 * pdf.js runs only in the page threads (pipeline/pdf-reader.ts). Loaded on a worker's main thread
 * through tsx it cost 85–130 MiB of resident memory for the process's life (measured: the document
 * role's modules took a process from 75 to 253–304 MiB with it, to 170 without), so a runtime import
 * of pdf.js from a main-thread module (a value import from engine/math/pdf/index.ts, pipeline/pdf.ts
 * or page-graphics.ts) is a regression. A resolve hook reports every pdfjs-dist module resolved while
 * the document role's entry loads, as production starts it.
 */
const HOOK = `data:text/javascript,${encodeURIComponent(
  `export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.includes('/pdfjs-dist/')) process.stderr.write('PDFJS ' + r.url + ' from ' + c.parentURL + '\\n'); return r; }`,
)}`;
const REGISTER = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(HOOK)});`)}`;

describe('the document worker main thread', () => {
  it('loads no pdf.js module', () => {
    const role = new URL('./index.ts', import.meta.url).href;
    const args = ['--import', REGISTER, ...RUNTIME_IMPORTS, '--input-type=module', '-e', `await import(${JSON.stringify(role)}); console.error('LOADED');`];
    const { stderr } = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 60_000 });
    expect(stderr.split('\n').filter((l) => l.startsWith('PDFJS') || l === 'LOADED')).toEqual(['LOADED']);
  });
});
