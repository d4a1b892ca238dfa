/** Turns Node's source maps off unless FOLIO_SOURCE_MAPS=true; every Folio process and thread loads it after tsx. */
export const NO_SOURCE_MAPS = new URL('./no-source-maps.ts', import.meta.url).href;

/**
 * The node arguments before a Folio entry point, as production runs it (Makefile, installer,
 * the worker supervisor, tests): TypeScript through tsx, then core/no-source-maps.ts.
 */
export const RUNTIME_IMPORTS = ['--import', 'tsx', '--import', NO_SOURCE_MAPS];
