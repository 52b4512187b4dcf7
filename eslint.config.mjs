// Lint rules for the whole project, run by `npm test` (scripts/test.mjs): errors fail the run.
// typescript-eslint's recommended set without type information (fast: no second type-check; tsc
// --strict already runs first), plus the few rules that catch this project's kind of mistakes.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // core/oodle/kraken/assembly/ is AssemblyScript (decorators on functions, wasm types): compiled by asc, not tsc.
  { ignores: ['node_modules/', 'out/', 'dist/', '.cache/', 'test-artifacts/', 'bench-data/', 'sample-game/', 'core/oodle/kraken/assembly/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Unused names are tsc's job (noUnusedLocals / noUnusedParameters), with its own conventions.
      '@typescript-eslint/no-unused-vars': 'off',
      // Test helpers parse JSON output whose shape the assertions check.
      '@typescript-eslint/no-explicit-any': 'off',
      // `for (;;)` loops in decoders are deliberate.
      'no-constant-condition': ['error', { checkLoops: false }],
      // Decoders declare their state up front, initialised, before the loops that assign it.
      'no-useless-assignment': 'off',
      // Control characters in patterns are this project's subject (names that must not reach a disk).
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    // Webview code runs in a browser.
    files: ['media/**/*.ts'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', self: 'readonly' } },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
      },
    },
  },
);
