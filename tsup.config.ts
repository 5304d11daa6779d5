import { defineConfig } from 'tsup';

/**
 * One bundle per process: `src/main.ts` → `dist/main.js`, with the workspace's own packages
 * inlined (they are TypeScript sources) and third-party packages left to node_modules.
 */
export default defineConfig({
  entry: ['src/main.ts'],
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  // Maps for stack traces (`--enable-source-maps`): positions and file names, without a copy of
  // the sources, which every process parsed and kept for nothing (1.7 MB of the idle standalone).
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  noExternal: [/^@svc\//],
  // Every other bare import stays external, including those only the libraries depend on.
  external: [/^(?!@svc\/)[^./]/],
});
