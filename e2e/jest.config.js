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
 * must not run beside one another (listed in ./src/shared-system-files.json), then resilience,
 * which starts a system of its own, as every file of the second lane does. In a quiet clean-clone
 * run (npm test prints each file's time) the first lane took 1,238 s and the second 1,122 s, with
 * first-run (29 s) in the first; it is in the second now. Two files at a time in the second lane
 * made a run longer, not shorter: the two cores were already busy, and 8 files failed at load 20+.
 */
const first = [...require('./src/shared-system-files.json'), 'resilience'];

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
