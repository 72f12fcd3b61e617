import { randomUUID } from 'node:crypto';
import { messages, type RoomCheckRequest, type RoomCheckResult } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type PjlinkSimulator, startPjlinkSimulator } from '@cm/simulators';
import {
  dropNamespace,
  FakeInventory,
  joined,
  newNamespace,
  type Replica,
  RoomCheckedEvents,
  startReplica,
} from './support';

const PROJECTOR = '127.0.48.1';

/**
 * A projector takes one control connection at a time: room checks, on whichever of two replicas
 * takes them, never open a second one while the owning replica's scheduled probe of it is in
 * flight; they join that probe and deliver its reading. The projector holds its answers until the
 * test lets go, so the scheduled probe is in flight for as long as the test needs.
 */
describe('room check of a single-connection device', () => {
  const namespace = newNamespace();
  let inventory: FakeInventory;
  let checked: RoomCheckedEvents;
  let projector: PjlinkSimulator;
  let replicas: Replica[] = [];
  const projectorId = randomUUID();
  const room: RoomCheckRequest = {
    roomId: randomUUID(),
    equipment: [{ equipmentId: projectorId, ipAddress: PROJECTOR }],
  };
  const checkRoom = () => replicas[0].rpc.send(messages.monitor.checkRoom, room, { timeoutMs: 15_000 });

  beforeAll(async () => {
    projector = await startPjlinkSimulator({ host: PROJECTOR, name: 'One-connection projector' });
    inventory = await FakeInventory.start(namespace);
    inventory.add(PROJECTOR, { equipmentId: projectorId });
    await inventory.setProbe({
      equipmentId: projectorId,
      address: PROJECTOR,
      probe: { type: 'pjlink', port: projector.port, intervalSeconds: 10 },
      secrets: {},
    });
    // Probe timeouts far beyond the test's hold: the hold alone decides when the projector answers.
    const env = { MONITOR_PROBE_TIMEOUT_MS: '60000' };
    replicas = [await startReplica(namespace, env), await startReplica(namespace, env)];
    await joined(...replicas);
    checked = await RoomCheckedEvents.listen(namespace);
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await checked?.close();
    await inventory?.close();
    await projector?.close();
    await dropNamespace(namespace);
  });

  it('joins the scheduled probe in flight instead of opening a second connection, and delivers its reading', async () => {
    const release = projector.holdAnswers();
    const answers: RoomCheckResult[] = [];
    try {
      expect(await replicas[0].rpc.send(messages.monitor.start)).toMatchObject({ isRunning: true });
      // The owner's scheduled probe has connected and waits for the projector's greeting.
      await eventually(() => expect(projector.openConnections).toBe(1), 30_000);
      // Each request goes to whichever replica of the queue group takes it: the owner, or the
      // other, which hands the probe to the owner. (The scheduled probe waits up to 5 s for the
      // greeting, PJLink's answer timeout; the checks answer well within it.)
      answers.push(...(await Promise.all(Array.from({ length: 6 }, () => checkRoom()))));
      expect(projector.connectionsAccepted).toBe(1);
    } finally {
      release();
    }
    for (const answer of answers)
      expect(answer.equipment).toEqual([
        { equipmentId: projectorId, status: 'active', rttMs: expect.any(Number), probe: null, pending: true },
      ]);

    // Every check delivers the one reading the scheduled probe took.
    await eventually(() => {
      for (const answer of answers)
        expect(checked.of(answer.checkId!, projectorId)).toEqual([
          expect.objectContaining({ probe: { type: 'pjlink', outcome: 'answered' } }),
        ]);
    });
    expect(projector.busyRefusals).toBe(0);
    expect(projector.mostAtOnce).toBe(1);
  });
});
