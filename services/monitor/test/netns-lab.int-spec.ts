import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomInt } from 'node:crypto';
import { Pinger } from '../src/ping/pinger';
import { NetnsLab } from './support';

describe('the device lab (NetnsLab)', () => {
  it('changes no link or address of this machine, so a browser beside it keeps its requests', async () => {
    // The router is made once, before this watch starts: CI makes it before any test.
    NetnsLab.create().destroy();
    const watch = spawn('ip', ['-o', 'monitor', 'link', 'address'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let seen = '';
    watch.stdout.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    await sleep(300);
    try {
      const lab = NetnsLab.create();
      const pinger = new Pinger({
        sessionId: randomInt(1, 65_535),
        timeoutMs: 1000,
        retries: 0,
        packetGapMs: 0,
        maxOutstanding: 100,
      });
      try {
        const replies = await Promise.all(
          [...lab.answering, `${lab.routedPrefix}.1`].map((a) => pinger.ping(a)),
        );
        expect(replies.map((r) => r.alive)).toEqual([true, true, true, true, false]);
      } finally {
        pinger.close();
        lab.destroy();
      }
      await sleep(300);
    } finally {
      watch.kill();
    }
    expect(seen).toBe('');
  });
});
