// Leaves each jest run's counts where `npm test` can add them up into one closing line.
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const pkg = JSON.parse(fs.readFileSync(path.join(this.rootDir, 'package.json'), 'utf8'));
    const i = process.argv.indexOf('--selectProjects');
    const tier = i > 0 ? process.argv[i + 1] : 'all';
    const dir = path.join(__dirname, '..', 'artifacts', 'jest', pkg.name);
    fs.mkdirSync(dir, { recursive: true });
    const summary = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    fs.writeFileSync(path.join(dir, `${tier}.json`), JSON.stringify(summary));
  }
}

module.exports = SummaryReporter;
