import { describe, expect, it } from 'vitest';
import type { JobSpec } from './job-spec.js';
import { extensionOf, isFolioOutput, outputBaseKey, stripExtension } from './layout.js';

const spec = (layout: JobSpec['output']['layout'], files = false) => ({ input: { folder: files ? null : 's3://b/in/' }, output: { layout } }) as JobSpec;

describe('output layout', () => {
  it('writes alongside the source', () => {
    expect(outputBaseKey(spec('alongside'), 'in/sub/a.pdf', 'in/', 'in/')).toBe('in/sub/a');
  });
  it('mirrors the relative path under the output folder', () => {
    expect(outputBaseKey(spec('mirror'), 'in/sub/a.pdf', 'in/', 'out/')).toBe('out/sub/a');
  });
  it('flattens without collisions between folders', () => {
    expect(outputBaseKey(spec('flat'), 'in/sub/a.pdf', 'in/', 'out/')).toBe('out/sub__a');
    expect(outputBaseKey(spec('flat'), 'in/other/a.pdf', 'in/', 'out/')).not.toBe(outputBaseKey(spec('flat'), 'in/sub/a.pdf', 'in/', 'out/'));
  });
  it('uses the file name for explicit input files', () => {
    expect(outputBaseKey(spec('flat', true), 'x/y/report.v2.pdf', '', 'out/')).toBe('out/report.v2');
  });
  it('knows extensions and Folio outputs', () => {
    expect(extensionOf('a/B.PDF')).toBe('pdf');
    expect(extensionOf('a/.hidden')).toBe('');
    expect(stripExtension('a.b/c')).toBe('a.b/c');
    expect(isFolioOutput('x/a.lines.json')).toBe(true);
    expect(isFolioOutput('x/_folio/job/manifest.jsonl')).toBe(true);
    expect(isFolioOutput('x/report.folio.docx')).toBe(true);
    expect(isFolioOutput('x/a.pdf')).toBe(false);
  });
});
