const { workspaceConfig } = require('../../jest.preset');

module.exports = workspaceConfig(__dirname);
