const { swc, moduleNameMapper, reporters } = require('../jest.preset');

const common = {
  rootDir: __dirname,
  // wouter and its path matcher ship only as ES modules: swc turns them into CommonJS for jest.
  transform: { '^.+\\.(t|j)sx?$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(wouter|regexparam)/)'],
  moduleNameMapper,
};

module.exports = {
  reporters,
  projects: [
    // Pure functions and fetch rules run in Node, which has fetch and Response.
    { ...common, displayName: 'web', testEnvironment: 'node', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    // Components render into jsdom.
    {
      ...common,
      displayName: 'web-dom',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/src/**/*.spec.tsx'],
      setupFilesAfterEnv: ['<rootDir>/src/test/setup-dom.ts'],
    },
  ],
};
