import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
    (() => {
      // Written into the real output folder: the installer builds with --outDir elsewhere.
      let outDir = join(WEB_DIR, 'dist');
      return {
        name: 'folio-source-stamp',
        apply: 'build' as const,
        configResolved(c: { root: string; build: { outDir: string } }) {
          outDir = resolve(c.root, c.build.outDir);
        },
        closeBundle() {
          writeFileSync(join(outDir, STAMP_FILE), `${consoleSourceHash()}\n`);
        },
      };
    })(),
  ],
});
