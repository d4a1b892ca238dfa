/**
 * Preloaded right after tsx in every Folio process (RUNTIME_IMPORTS in core/runtime.ts). tsx
 * turns Node's source maps on, and Node then keeps the map of every module it loads for the life
 * of the process — pdf.js and MathJax included: about 55 MB of heap and 75 MB of resident memory
 * in a document worker (docs/reliability.md, "Soak"). Folio's processes run without them;
 * FOLIO_SOURCE_MAPS=true keeps them, for stack traces that point at TypeScript lines.
 */
if (process.env.FOLIO_SOURCE_MAPS !== 'true') process.setSourceMapsEnabled(false);
