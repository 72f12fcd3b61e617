import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The launcher `npm start` uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const launcher = require('../../scripts/stack.cjs') as {
  startLocalS3(o: { directory: string; port: number }): Promise<{
    endpoint: string;
    address: { address: string; port: number };
    close(): Promise<void>;
  }>;
};

describe('the S3-API server that npm start runs', () => {
  it('answers requests nobody signed, so it listens on loopback only', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'cm-s3-'));
    const s3 = await launcher.startLocalS3({ directory, port: 0 });
    try {
      const unsigned = await fetch(`${s3.endpoint}/`);
      expect(unsigned.status).toBe(200);
      expect(s3.address.address).toBe('127.0.0.1');
      expect(new URL(s3.endpoint).hostname).toBe('127.0.0.1');
    } finally {
      await s3.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
