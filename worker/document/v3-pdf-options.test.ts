import { describe, expect, it } from 'vitest';
import { documentOptions } from './v3-pdf.js';

describe('the /v3/pdf options the document pipeline reads', () => {
  it('carries disable_itemize and disable_lstlisting (4.7), which default to environments', () => {
    expect(documentOptions({ disable_itemize: true, disable_lstlisting: true })).toMatchObject({ disableItemize: true, disableLstlisting: true });
    const defaults = documentOptions({});
    expect(defaults.disableItemize ?? false).toBe(false);
    expect(defaults.disableLstlisting ?? false).toBe(false);
  });
});
