import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'deploy/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Off: Nest reads constructor parameter types at run time, so a class used only in a
      // constructor signature must stay a value import.
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-console': 'error',
    },
  },
  {
    // The contracts are shared with the browser: no server or UI framework may leak in.
    files: ['libs/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@nestjs/*', 'typeorm', 'react', 'react-dom', 'pg', 'nats'] },
      ],
    },
  },
  {
    // TypeORM stays in entities, repositories and migrations.
    files: ['services/*/src/**/*.ts'],
    ignores: ['**/*.entity.ts', '**/*.repository.ts', '**/migrations/**', '**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['typeorm'] }] },
  },
  {
    files: [
      'scripts/**/*.{js,mjs,cjs}',
      'bench/**/*.{js,mjs,cjs}',
      '**/*.config.{js,cjs,mjs}',
      'jest.preset.js',
      '.dependency-cruiser.cjs',
    ],
    languageOptions: { globals: globals.node },
    rules: { 'no-console': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
