import { describe, expect, it } from 'vitest';
import { documentOptions } from './document-options.js';

describe('the 4.7 options the document pipeline reads (/v3/pdf and jobs)', () => {
  it('carries disable_itemize and disable_lstlisting (4.7), which default to environments', () => {
    expect(documentOptions({ disable_itemize: true, disable_lstlisting: true }, 1000)).toMatchObject({ disableItemize: true, disableLstlisting: true });
    const defaults = documentOptions({}, 1000);
    expect(defaults.disableItemize ?? false).toBe(false);
    expect(defaults.disableLstlisting ?? false).toBe(false);
  });

  it("carries each equation option and the route's page limit", () => {
    const o = documentOptions({ rm_spaces: false, rm_fonts: true, idiomatic_eqn_arrays: true, numbers_default_to_math: true }, 2500);
    expect(o).toMatchObject({ rmSpaces: false, rmFonts: true, idiomaticEqnArrays: true, numbersDefaultToMath: true, pageTimeoutMs: 2500 });
    expect(documentOptions({}, 1000).chemistry?.smiles).toBe(true);
  });
});
