import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The operator console: built into console/web/dist and served by the appliance at /console/
// (appliance/http/console-static.ts). Everything is bundled; the page never reaches past its origin.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The MMD renderer (MathJax inside mathpix-markdown-it) is one 4.8 MB script loaded only when needed.
    chunkSizeWarningLimit: 5_000,
    assetsInlineLimit: 0,
  },
});
