// Leaves each jest run's counts and each test file's duration where `npm test` can add them up
// into its closing lines.
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
    // Unit counts live in the folder Nx caches for the `test` target (a cached run restores them,
    // clearing the folder first); the other tiers', which run beside it, elsewhere.
    const cached = tier === 'unit' || tier === 'all';
    const dir = path.join(__dirname, '..', 'artifacts', 'jest', ...(cached ? [pkg.name] : [tier, pkg.name]));
    fs.mkdirSync(dir, { recursive: true });
    const root = path.join(__dirname, '..');
    const summary = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      // From the file's start to its end, set-up and tear-down included: what the run waited for.
      files: results.testResults.map((file) => ({
        path: path.relative(root, file.testFilePath),
        ms: Math.max(0, file.perfStats.end - file.perfStats.start),
      })),
    };
    fs.writeFileSync(path.join(dir, `${tier}.json`), JSON.stringify(summary));
  }
}

module.exports = SummaryReporter;
