const { transpiling, moduleNameMapper, reporters } = require('../jest.preset');

const files = (names) => names.map((name) => `<rootDir>/src/${name}.e2e-spec.ts`);
const project = (displayName, testMatch) => ({
  displayName,
  ...transpiling,
  moduleNameMapper,
  testMatch,
});

/**
 * Two lanes of about equal length that `npm run test-e2e` (./lanes.mjs) runs side by side, each a
 * file at a time. The first holds every file on the shared system (./src/shared-system.ts), which
 * must not run beside one another (listed in ./src/shared-system-files.json), and resilience; most
 * other files start a whole system of their own.
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
