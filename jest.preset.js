// Shared jest settings: swc transpiles (fast on two cores), `tsc` type-checks separately.
const path = require('node:path');

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

// Tests import the libraries from source, so no build is needed before a unit run.
const moduleNameMapper = {
  '^@cm/contracts$': path.join(__dirname, 'libs/contracts/src/index.ts'),
  '^@cm/platform$': path.join(__dirname, 'libs/platform/src/index.ts'),
  '^@cm/platform/testing$': path.join(__dirname, 'libs/platform/src/testing/index.ts'),
};

/** One jest project per tier: `unit` beside the code, `integration` under test/. */
function projects(rootDir) {
  const common = { rootDir, transform: { '^.+\\.tsx?$': swc }, moduleNameMapper, testEnvironment: 'node' };
  return [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.int-spec.ts'],
      slowTestThreshold: 30,
      globalSetup: path.join(__dirname, 'scripts/jest-integration-setup.js'),
      globalTeardown: path.join(__dirname, 'scripts/jest-integration-teardown.js'),
    },
  ];
}

const reporters = ['default', path.join(__dirname, 'scripts/jest-summary-reporter.js')];

/** A workspace's whole jest config: both tiers, the summary reporter, room for real I/O. */
function workspaceConfig(rootDir) {
  return { projects: projects(rootDir), reporters, testTimeout: 60_000 };
}

module.exports = { swc, moduleNameMapper, projects, reporters, workspaceConfig };
