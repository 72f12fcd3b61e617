import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';

// Each folder under web/src/features is one feature.
const webFeatures = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const rawQuery = {
  selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
  message:
    'Run SQL through queryRows<Row>(), queryRow<Row>(), queryChanged<Row>() or execute() from @cm/platform.',
};

// The contracts' route table references every zod schema: imported at run time, it puts zod and all
// the contracts on every first screen (issue 37's budget). The web reads its schema-free copy.
const contractRoutes = {
  name: '@cm/contracts',
  importNames: ['apiRoutes'],
  message:
    'Import apiRoutes from web/src/lib/api-routes (the table without schemas, written by scripts/web-api-routes.mjs).',
};
// Files that may read the contracts' table: the copy's check, its types, and the reply check's chunk.
const contractRoutesReaders = [
  'web/src/lib/api-routes.spec.ts',
  'web/src/lib/api-route-types.ts',
  'web/src/lib/api-schemas.ts',
  'web/src/lib/reply-checks.spec.ts',
];
const sharedNotFeature = { regex: '/features/', message: 'Shared web code does not import a feature.' };

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
    // The services' SQL answers typed rows: queryRows<Row>/queryChanged<Row>/execute from the
    // platform name the shape and the row where the SQL is written, instead of TypeORM's `any` (see
    // docs/architecture.md, "Data access"). Migrations keep the query runner.
    files: ['services/*/src/**/*.ts'],
    ignores: ['**/migrations/**', '**/*.spec.ts'],
    rules: { 'no-restricted-syntax': ['error', rawQuery] },
  },
  {
    // Gateway handlers take their parameters typed by the route contract (`@Param() { id }:
    // RouteParams<typeof apiRoutes.x>`), so a parameter renamed in the contract fails to compile.
    files: ['services/gateway/src/**/*.controller.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        rawQuery,
        {
          selector: 'Decorator > CallExpression[callee.name=/^(Param|Query|Body)$/] > Literal',
          message:
            'Take the parameters whole, typed by the route: @Param() { id }: RouteParams<typeof apiRoutes.x> (RouteQuery, RouteBody).',
        },
      ],
    },
  },
  {
    // The web app: hooks used as React requires, accessible markup, and features that do not
    // reach into each other (what two features share lives in components/ or lib/).
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: jsxA11y.flatConfigs.recommended.languageOptions,
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: contractRoutesReaders,
    rules: { 'no-restricted-imports': ['error', { paths: [contractRoutes] }] },
  },
  ...webFeatures.map((feature) => ({
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [contractRoutes],
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${webFeatures.filter((f) => f !== feature).join('|')})(/|$)`,
              message:
                'A feature does not import another feature: move what both need to web/src/lib or web/src/components.',
            },
          ],
        },
      ],
    },
  })),
  {
    // Shared parts serve every feature, so they never depend on one.
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [contractRoutes],
          patterns: [sharedNotFeature],
        },
      ],
    },
  },
  {
    files: contractRoutesReaders,
    rules: { 'no-restricted-imports': ['error', { patterns: [sharedNotFeature] }] },
  },
  {
    files: [
      'scripts/**/*.{js,mjs,cjs}',
      'bench/**/*.{js,mjs,cjs}',
      '**/*.config.{js,cjs,mjs}',
      'jest.preset.js',
      '.dependency-cruiser.cjs',
      'e2e/src/support/*.cjs',
    ],
    languageOptions: { globals: globals.node },
    rules: { 'no-console': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
