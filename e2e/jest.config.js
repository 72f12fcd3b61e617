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
 * Two lanes of about equal length that `npm run test-e2e` (./lanes.mjs) runs side by side, each a
 * file at a time. The first holds every file on the shared system (./src/shared-system.ts), which
 * must not run beside one another (listed in ./src/shared-system-files.json), then resilience and
 * first-run, which start systems of their own, as every file of the second lane does. In a run on
 * a loaded machine (npm test prints each file's time) the first lane took 1,231 s and the second
 * 1,616 s; with web-qr-labels moved onto the shared system and first-run (97 s) here, each lane
 * has about 1,420 s. device-health (about 55 s alone) later joined the shared system, in the first.
 */
const first = [...require('./src/shared-system-files.json'), 'resilience', 'first-run'];

module.exports = {
  projects: [
    {
      ...project('e2e-1', files(first)),
      globalSetup: '<rootDir>/src/global-setup.ts',
      globalTeardown: '<rootDir>/src/global-teardown.ts',
    },
    {
      ...project('e2e-2', ['<rootDir>/src/**/*.e2e-spec.ts']),
      testPathIgnorePatterns: first.map((name) => `/src/${name}\\.e2e-spec\\.ts$`),
    },
  ],
  reporters,
  testTimeout: 120_000,
  maxWorkers: 1,
};
