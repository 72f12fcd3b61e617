const { transpiling, moduleNameMapper, reporters } = require('../jest.preset');

const files = (names) => names.map((name) => `<rootDir>/src/${name}.e2e-spec.ts`);
const project = (displayName, testMatch) => ({
  displayName,
  ...transpiling,
  moduleNameMapper,
  testMatch,
  // Keeps a failed browser test's screen and calls (./src/support/evidence.ts).
  testEnvironment: '<rootDir>/src/support/test-environment.cjs',
  setupFilesAfterEnv: ['<rootDir>/src/support/evidence.ts'],
});

/**
 * Two lanes that `npm run test-e2e` (./lanes.mjs) runs side by side. The first holds every file on
 * the shared system (./src/shared-system.ts), a file at a time, as they must not run beside one
 * another (listed in ./src/shared-system-files.json). The second holds the files that start systems
 * of their own, two at a time: nothing of one system is seen by another (namespaces, ports and lab
 * subnets of their own). In a quiet run on this 2-core machine the shared files took about 1,000 s
 * one after another, and the others about 1,360 s in all.
 */
const shared = require('./src/shared-system-files.json');

module.exports = {
  projects: [
    {
      ...project('e2e-1', files(shared)),
      globalSetup: '<rootDir>/src/global-setup.ts',
      globalTeardown: '<rootDir>/src/global-teardown.ts',
    },
    {
      ...project('e2e-2', ['<rootDir>/src/**/*.e2e-spec.ts']),
      testPathIgnorePatterns: shared.map((name) => `/src/${name}\\.e2e-spec\\.ts$`),
    },
  ],
  reporters,
  testTimeout: 120_000,
  maxWorkers: 1,
};
