import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { CONSOLE_PATHS } from './src/paths.js';

/**
 * `pages.json` beside `index.html`: the first path segment of every page, which the gateway
 * answers with `index.html` (a reload, a link to a deep page); the list lives in `src/paths.ts`.
 */
function pageList(): Plugin {
  return {
    name: 'svc-console-pages',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'pages.json', source: `${JSON.stringify(Object.values(CONSOLE_PATHS))}\n` });
    },
  };
}

// Hashed file names under /assets/ (the gateway serves them immutable); no inline script or
// module preload polyfill, so the page runs under `script-src 'self'`.
export default defineConfig({
  plugins: [react(), pageList()],
  build: { outDir: 'dist', assetsDir: 'assets', modulePreload: { polyfill: false }, assetsInlineLimit: 0 },
});
