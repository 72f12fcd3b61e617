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
  '^@cm/simulators$': path.join(__dirname, 'libs/simulators/src/index.ts'),
  '^@cm/platform/testing$': path.join(__dirname, 'libs/platform/src/testing/index.ts'),
};

/**
 * Packages published as ES modules only (openid-client and what it is built on, the test OpenID
 * provider): jest's module loader is CommonJS, so swc turns them into it as it does our sources.
 * Node itself loads them as they are.
 */
const esmOnly = ['openid-client', 'oauth4webapi', 'jose', 'oidc-provider'];
const esmTransform = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

/** How a project transpiles: our TypeScript, and the ES-module-only packages. */
const transpiling = {
  transform: {
    '^.+\\.tsx?$': swc,
    [`/node_modules/(${esmOnly.join('|')})/.+\\.js$`]: esmTransform,
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
};

/** One jest project per tier: `unit` beside the code, `integration` under test/. */
function projects(rootDir) {
  const common = { rootDir, ...transpiling, moduleNameMapper, testEnvironment: 'node' };
  return [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.int-spec.ts'],
      slowTestThreshold: 30,
      setupFilesAfterEnv: [path.join(__dirname, 'scripts/jest-integration-timeout.js')],
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

module.exports = { swc, transpiling, moduleNameMapper, projects, reporters, workspaceConfig };
