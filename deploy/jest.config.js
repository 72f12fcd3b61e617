const { swc, moduleNameMapper, reporters } = require('../jest.preset');

module.exports = {
  displayName: 'deploy',
  transform: { '^.+\\.tsx?$': swc },
  moduleNameMapper,
  reporters,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  // Each helm run is a process of its own; a cold first run also unpacks helm.
  testTimeout: 60_000,
};
