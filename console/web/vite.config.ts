import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vite';
import { consoleSourceHash, STAMP_FILE, WEB_DIR } from './source-hash.js';

// The operator console: built into console/web/dist and served by the appliance at /console/
// (appliance/http/console-static.ts). Everything is bundled; the page never reaches past its origin.
export default defineConfig({
  root: WEB_DIR,
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
  plugins: [
    {
      name: 'folio-source-stamp',
      apply: 'build',
      closeBundle() {
        writeFileSync(join(WEB_DIR, 'dist', STAMP_FILE), `${consoleSourceHash()}\n`);
      },
    },
  ],
});
