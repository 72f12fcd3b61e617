import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode, messages } from '@cm/contracts';
import { AppError, RpcClient } from '@cm/platform';
import { eventually, testEnv, testNatsUrl } from '@cm/platform/testing';
import { dropNamespace, FakeInventory, newNamespace, StatusEvents, testMonitorEnv } from './support';

const built = path.resolve(__dirname, '../dist/main.js');

/** What the chart requires of a replica's memory limit (deploy/helm/classroom-monitor/templates/monitor/_memory.tpl). */
const sizing = JSON.parse(
  readFileSync(
    path.resolve(__dirname, '../../../deploy/helm/classroom-monitor/files/monitor-memory.json'),
    'utf8',
  ),
) as { baseMiB: number; perAddressKiB: number };

const ADDRESSES = 20_000;
const SWEEPS = 3;
const limitMiB = Math.ceil(sizing.baseMiB + (ADDRESSES * sizing.perAddressKiB) / 1024);

/** Resident memory of a process now and at its peak (VmHWM), in MiB. */
function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/**
 * One monitor process as a pod runs it (`node dist/main.js`), in a container of the smallest memory
 * limit the chart accepts for ADDRESSES monitored addresses: V8's old generation bounded at half the
 * limit (the chart's NODE_OPTIONS) and 1 MiB semi-spaces (what V8 takes where less than 1 GiB is
 * available). It sweeps ADDRESSES loopback addresses that a stand-in inventory lists, by Check Now.
 * Before sweeps streamed their targets, a replica held about 13 KB per target at a sweep's peak, and
 * with this heap it ran out of memory at once.
 */
describe('memory of one monitor replica', () => {
  const namespace = newNamespace();
  let inventory: FakeInventory;
  let child: ChildProcess;
  let rpc: RpcClient;
  let statuses: StatusEvents;
  const output: string[] = [];

  beforeAll(async () => {
    inventory = await FakeInventory.start(namespace);
    statuses = await StatusEvents.listen(namespace);
    for (let i = 0; i < ADDRESSES; i++) inventory.add(`127.60.${Math.floor(i / 250)}.${(i % 250) + 1}`);
    child = spawn(
      process.execPath,
      [`--max-old-space-size=${Math.floor(limitMiB / 2)}`, '--max-semi-space-size=1', built],
      {
        env: {
          PATH: process.env.PATH,
          ...testEnv(namespace, { ...testMonitorEnv, MONITOR_PING_TIMEOUT_MS: '1000' }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    for (const stream of [child.stdout!, child.stderr!])
      stream.on('data', (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean)));
    rpc = new RpcClient({ namespace, servers: testNatsUrl, timeoutMs: 5000, name: 'memory-test' });
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`The monitor exited: ${output.slice(-5).join('\n')}`);
        const health = await rpc.send(messages.monitor.health);
        expect(health.checks.equipmentList?.detail).toBe(`${ADDRESSES} equipment with an address`);
      },
      60_000,
      250,
    );
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await rpc?.onApplicationShutdown();
    await statuses?.close();
    await inventory?.close();
    await dropNamespace(namespace);
  });

  /**
   * One sweep by Check Now, every address answered. On a machine loaded by other tests a sweep can
   * outlast the check's wait, which then answers that it goes on: its events tell when it ends.
   */
  const sweep = async () => {
    const earlier = new Set(statuses.sweeps());
    await rpc.send(messages.monitor.check, {}, { timeoutMs: 30_000 }).catch((error: unknown) => {
      if (!(error instanceof AppError && error.code === ErrorCode.CHECK_INCOMPLETE)) throw error;
    });
    await eventually(
      () => {
        const events = statuses.of(statuses.sweeps().find((id) => !earlier.has(id)) ?? '');
        expect({
          checked: new Set(events.map((e) => e.equipmentId)).size,
          unanswered: events.filter((e) => e.rttMs === null).length,
        }).toEqual({ checked: ADDRESSES, unanswered: 0 });
      },
      120_000,
      250,
    );
  };

  it(`sweeps ${ADDRESSES} addresses within the memory the chart requires for them, under ${sizing.perAddressKiB} KiB an address beyond its list`, async () => {
    const pid = child.pid!;
    const listed = memoryMiB(pid);
    // From here the peak is that of the sweeps.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    for (let i = 0; i < SWEEPS; i++) await sweep();
    const { peak } = memoryMiB(pid);
    const perAddressKiB = ((peak - listed.rss) * 1024) / ADDRESSES;
    expect({ limitMiB, peak: Math.round(peak), under: peak <= limitMiB }).toMatchObject({ under: true });
    expect({ perAddressKiB, under: perAddressKiB <= sizing.perAddressKiB }).toMatchObject({ under: true });
  }, 420_000);
});
