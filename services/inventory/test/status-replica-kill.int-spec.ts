import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import readline from 'node:readline';
import { type Equipment, events, namespacedName, messages, streams } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually, testEnv, testNatsUrl } from '@cm/platform/testing';
import { STATUS_CONSUMER } from '../src/status/checks/status-events.consumer';
import { dropNamespace, type Inventory, newNamespace, sql, startInventory } from './support';

/**
 * The port a process says it bound in its ready line. It binds one the system picks (HTTP_PORT=0):
 * a port chosen beforehand can be taken by another connection while the process starts.
 */
const readyPort = (child: ChildProcess) =>
  new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`inventory exited with ${code} during start-up`)));
    // A process start on a machine the other test lanes load has taken over 30 s.
    setTimeout(() => reject(new Error('inventory was not ready within 90 s')), 90_000).unref();
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"inventory ready"')) resolve((JSON.parse(line) as { httpPort: number }).httpPort);
    });
  });

/**
 * Two inventory replicas share the status consumer; one is killed (SIGKILL: no shutdown, no
 * acknowledgement of what it holds, perhaps a commit without its ack) while batches flow. Every
 * check must be recorded once: none lost, none counted twice.
 */
// Room for a replica's start on a loaded machine (below) on top of the batches' work.
jest.setTimeout(180_000);

describe('inventory replica killed mid-batch', () => {
  const namespace = newNamespace();
  // Events a killed replica held come back after this long, to the replica left.
  const env = { INVENTORY_STATUS_ACK_WAIT_MS: '2000' };
  let survivor: Inventory;
  let victim: ChildProcess | undefined;
  let monitor: JetStreamConnection;

  beforeAll(async () => {
    survivor = await startInventory(namespace, env);
    monitor = await JetStreamConnection.connect({
      namespace,
      servers: testNatsUrl,
      name: 'kill-test',
      timeoutMs: 5000,
    });
  });
  afterAll(async () => {
    if (victim?.exitCode === null) victim.kill('SIGKILL');
    await monitor?.close();
    await survivor?.close();
    await dropNamespace(namespace);
  });

  it('records every check exactly once when a replica dies while it holds batches', async () => {
    victim = spawn(process.execPath, [path.resolve(__dirname, '../dist/main.js')], {
      env: { ...process.env, ...testEnv(namespace, { ...env, HTTP_PORT: '0', LOG_LEVEL: 'info' }) },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const port = await readyPort(victim);
    victim.removeAllListeners('exit');
    const exited = once(victim, 'exit');
    await eventually(
      async () => expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200),
      30_000,
    );

    const building = await survivor.rpc.send(messages.inventory.createBuilding, {
      name: 'K',
    });
    const room = await survivor.rpc.send(messages.inventory.createRoom, {
      buildingId: building.id,
      room: { name: '1', type: 'Office', floor: '1' },
    });
    const fleet: Equipment[] = [];
    for (let i = 0; i < 100; i++) {
      fleet.push(
        await survivor.rpc.send(messages.inventory.createEquipment, {
          roomId: room.id,
          equipment: { name: `K${i}`, ipAddress: `127.0.9.${i + 1}` },
        }),
      );
    }

    const sweeps = 60;
    const t0 = Date.now();
    const statusOf = (device: number, sweep: number) => ((device + sweep) % 5 === 0 ? 'inactive' : 'active');
    for (let s = 0; s < sweeps; s++) {
      // A sweep every 100 ms: batches are in flight at the kill, and the killed replica's come back
      // after newer ones, however many (a loaded machine builds a backlog).
      await monitor.publish(
        events.statusChecked,
        {
          sweepId: `kill-${s}`,
          checks: fleet.map((e, d) => ({
            equipmentId: e.id,
            status: statusOf(d, s),
            checkedAt: new Date(t0 + s * 1000).toISOString(),
            rttMs: statusOf(d, s) === 'active' ? 0.1 : null,
            results: [{ address: e.ipAddress!, alive: statusOf(d, s) === 'active', rttMs: null }],
          })),
        },
        { msgId: `kill-${s}` },
      );
      if (s === 20) victim.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await exited;

    const info = () =>
      monitor.jsm.consumers.info(namespacedName(namespace, streams.status.name), STATUS_CONSUMER);
    await eventually(
      async () => expect(await info()).toMatchObject({ num_pending: 0, num_ack_pending: 0 }),
      60_000,
    );

    const rows = await sql<{ id: string; checks: number; last: Date; status: string }>(
      survivor,
      `SELECT st.equipment_id AS id, st.hour_checks + COALESCE(
                (SELECT sum(checks) FROM inv.status_days d WHERE d.equipment_id = st.equipment_id), 0)::int AS checks,
              st.last_checked_at AS last, e.status
         FROM inv.equipment_state st JOIN inv.equipment e ON e.id = st.equipment_id`,
    );
    expect(rows).toHaveLength(fleet.length);
    for (const [d, e] of fleet.entries()) {
      expect(rows.find((r) => r.id === e.id)).toEqual({
        id: e.id,
        checks: sweeps,
        last: new Date(t0 + (sweeps - 1) * 1000),
        status: statusOf(d, sweeps - 1),
      });
    }
    // Each device keeps the times of its 32 newest checks, oldest first, for placing a late one.
    const kept = await sql<{ recent: string[] }>(survivor, 'SELECT recent FROM inv.equipment_state');
    const newest32 = Array.from({ length: 32 }, (_, i) => String(t0 + (sweeps - 32 + i) * 1000));
    for (const { recent } of kept) expect(recent).toEqual(newest32);
    // The timeline is the checks' own: a span starts at every change of status, none at a repeat.
    const [{ spans }] = await sql<{ spans: number }>(
      survivor,
      'SELECT count(*)::int AS spans FROM inv.status_spans',
    );
    let changes = fleet.length; // each device's first span, from its creation
    for (let d = 0; d < fleet.length; d++) {
      for (let s = 0; s < sweeps; s++)
        if (statusOf(d, s) !== (s === 0 ? 'active' : statusOf(d, s - 1))) changes++;
    }
    expect(spans).toBe(changes);
  });
});
