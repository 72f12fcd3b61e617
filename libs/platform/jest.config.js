const { swc, moduleNameMapper, reporters } = require('../../jest.preset');

module.exports = {
  displayName: 'platform',
  transform: { '^.+\\.tsx?$': swc },
  moduleNameMapper,
  reporters,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
