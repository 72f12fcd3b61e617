const { swc, moduleNameMapper, reporters } = require('../jest.preset');

module.exports = {
  displayName: 'e2e',
  transform: { '^.+\\.tsx?$': swc },
  moduleNameMapper,
  reporters,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testTimeout: 120_000,
  // Most files start a whole stack: run them one after another on two cores.
  maxWorkers: 1,
  globalSetup: '<rootDir>/src/global-setup.ts',
  globalTeardown: '<rootDir>/src/global-teardown.ts',
};
