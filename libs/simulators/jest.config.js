const { swc, moduleNameMapper, reporters } = require('../../jest.preset');

module.exports = {
  displayName: 'simulators',
  transform: { '^.+\\.tsx?$': swc },
  moduleNameMapper,
  reporters,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
