// Jest's node environment, telling the tests whether the running test has failed: a hook after it
// can then keep what the browser showed (./evidence.ts) before the page closes.
const { TestEnvironment } = require('jest-environment-node');

class E2eEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name === 'test_start') this.global.__e2eTestFailed = false;
    if (event.name === 'test_fn_failure') this.global.__e2eTestFailed = true;
    if (event.name === 'test_start' || event.name === 'test_fn_failure')
      this.global.__e2eTestName = event.test.name;
  }
}

module.exports = E2eEnvironment;
