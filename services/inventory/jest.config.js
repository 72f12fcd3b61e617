const { projects, reporters } = require('../../jest.preset');

module.exports = { projects: projects(__dirname), reporters };
