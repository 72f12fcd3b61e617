const { swc, moduleNameMapper, reporters } = require('../jest.preset');

module.exports = {
  displayName: 'web',
  transform: { '^.+\\.tsx?$': swc },
  moduleNameMapper,
  reporters,
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
};
