// ESLint (typescript-eslint's recommended rules) for the sources, tests and scripts; formatting is Prettier's
// (eslint-config-prettier turns off the rules it owns). `npm run lint` must report nothing.
import js from '@eslint/js';
import globals from 'globals';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test/.artifacts/', 'tmp/', 'tmp-q/', 'docs/'] },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['studio/**/*.js', 'public/**/*.js'],
    // Plain browser scripts sharing one scope: page.js defines printedPage for the others.
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, printedPage: 'readonly' } },
    rules: { 'no-redeclare': ['error', { builtinGlobals: false }] },
  },
  {
    // CommonJS files (a mocha reporter mocha loads with require) import with require.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      // Unused arguments named with a leading underscore are deliberate (express handler signatures).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
