/** Turns Node's source maps off unless FOLIO_SOURCE_MAPS=true; every Folio process and thread loads it after tsx. */
export const NO_SOURCE_MAPS = new URL('./no-source-maps.ts', import.meta.url).href;

/**
 * The node arguments before a Folio entry point, as production runs it (Makefile, installer,
 * the worker supervisor, tests): TypeScript through tsx, then core/no-source-maps.ts.
 */
export const RUNTIME_IMPORTS = ['--import', 'tsx', '--import', NO_SOURCE_MAPS];

/**
 * Environment every Folio process starts with unless the operator sets it: glibc's malloc gives
 * each thread that allocates its own arena (libvips in sharp, onnxruntime, pdf.js page threads,
 * libuv's pool), and freed memory in one arena is not reused by another, so a long document's
 * worker grew with its page count (docs/reliability.md, "Document size"). Two arenas keep the
 * resident set flat at no measurable cost in speed. glibc reads it at process start, so it is set
 * where processes are started: the worker supervisor, `make run`, the installer's units.
 */
export const RUNTIME_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** `env` with RUNTIME_ENV's defaults under it: what the operator set wins. */
export const withRuntimeEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...RUNTIME_ENV, ...env });
