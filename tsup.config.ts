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
  sourcemap: true,
  noExternal: [/^@svc\//],
  // Every other bare import stays external, including those only the libraries depend on.
  external: [/^(?!@svc\/)[^./]/],
});
