// How long an integration test or hook may take before jest calls it hung. Hooks start whole
// services in the test's process: about 10 s of CPU for every service at once, which a machine
// loaded 15 times over (other work, a CPU hog) stretches past three minutes. A hook cut short
// leaves what it was starting running, so the run never ends. Tests wait on outcomes; this only
// ends a hang.
require('@jest/globals').jest.setTimeout(600_000);
