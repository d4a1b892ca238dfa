/**
 * The node arguments before a Folio entry point, as production runs it (Makefile, installer,
 * the worker supervisor, tests): TypeScript through tsx, then core/no-source-maps.ts.
 */
export const RUNTIME_IMPORTS = ['--import', 'tsx', '--import', new URL('./no-source-maps.ts', import.meta.url).href];
