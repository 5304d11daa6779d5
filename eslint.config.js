import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/drizzle/**', '.svc-data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The pack runner is plain JavaScript run by node itself, outside TypeScript's view.
    files: ['services/execution/runner/**/*.mjs'],
    languageOptions: { globals: { setInterval: 'readonly', Buffer: 'readonly', AbortController: 'readonly', DOMException: 'readonly' } },
  },
  {
    // The console's dashboard frame page runs as written, in a browser.
    files: ['console/public/**/*.js'],
    languageOptions: { globals: { location: 'readonly', document: 'readonly', parent: 'readonly', addEventListener: 'readonly', URLSearchParams: 'readonly' } },
  },
);
