// The two lanes of jest.config.js side by side; fails when either fails.
import { spawn } from 'node:child_process';
import process from 'node:process';

const lanes = ['e2e-1', 'e2e-2'].map(
  (lane) =>
    new Promise((resolve) =>
      spawn('npx', ['jest', '--selectProjects', lane, ...process.argv.slice(2)], { stdio: 'inherit' }).on(
        'exit',
        (code, signal) => resolve(code ?? (signal ? 1 : 0)),
      ),
    ),
);
process.exit(Math.max(...(await Promise.all(lanes))));
