const { swc, moduleNameMapper, reporters } = require('../../jest.preset');

module.exports = {
  displayName: 'contracts',
  transform: { '^.+\\.tsx?$': swc },
  moduleNameMapper,
  reporters,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
