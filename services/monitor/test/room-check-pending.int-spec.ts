import { randomUUID } from 'node:crypto';
import { messages, type RoomCheckRequest } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type PjlinkSimulator, startPjlinkSimulator } from '@cm/simulators';
import {
  dropNamespace,
  FakeInventory,
  HealthReadings,
  holdPingsTo,
  joined,
  newNamespace,
  type Replica,
  RoomCheckedEvents,
  startReplica,
} from './support';

const HUNG = '127.0.47.1';
const QUICK = '127.0.47.2';
const DISPLAY = '127.0.47.3';

/**
 * A room check answers within its budget whatever the devices do: a projector that holds its
 * answers (the test decides until when) is marked pending in the answer, and its result comes
 * after, published for inventory and announced on the live stream. One replica, monitoring
 * stopped, real ICMP to loopback, simulated projectors over real sockets, real NATS.
 */
describe('room check: an answer within the budget, the rest as it comes', () => {
  const namespace = newNamespace();
  let inventory: FakeInventory;
  let readings: HealthReadings;
  let checked: RoomCheckedEvents;
  let hung: PjlinkSimulator;
  let quick: PjlinkSimulator;
  let sut: Replica;
  const ids = { hung: randomUUID(), quick: randomUUID(), display: randomUUID() };
  const room: RoomCheckRequest = {
    roomId: randomUUID(),
    equipment: [
      { equipmentId: ids.hung, ipAddress: HUNG },
      { equipmentId: ids.quick, ipAddress: QUICK },
      { equipmentId: ids.display, ipAddress: DISPLAY },
    ],
  };
  const checkRoom = () => sut.rpc.send(messages.monitor.checkRoom, room, { timeoutMs: 15_000 });

  beforeAll(async () => {
    hung = await startPjlinkSimulator({ host: HUNG, name: 'Held projector' });
    quick = await startPjlinkSimulator({ host: QUICK, name: 'Quick projector' });
    inventory = await FakeInventory.start(namespace);
    // The probe's own timeout is far beyond the test's hold: the hold alone decides when it answers.
    sut = await startReplica(namespace, { MONITOR_PROBE_TIMEOUT_MS: '60000' });
    await joined(sut);
    readings = await HealthReadings.listen(namespace);
    checked = await RoomCheckedEvents.listen(namespace);
    for (const [equipmentId, address, device] of [
      [ids.hung, HUNG, hung],
      [ids.quick, QUICK, quick],
    ] as const)
      await inventory.setProbe({
        equipmentId,
        address,
        probe: { type: 'pjlink', port: device.port, intervalSeconds: 3600 },
        secrets: {},
      });
    // The probe settings reach the replica shortly after they change.
    await eventually(async () => {
      const answer = await checkRoom();
      expect(answer.equipment.filter((e) => e.probe)).toHaveLength(2);
    });
  });

  afterAll(async () => {
    await sut?.close();
    await checked?.close();
    await readings?.close();
    await inventory?.close();
    await hung?.close();
    await quick?.close();
    await dropNamespace(namespace);
  });

  it('answers what is known while a probe hangs, marks that device pending, then delivers its result', async () => {
    const release = hung.holdAnswers();
    let answer;
    try {
      answer = await checkRoom();
    } finally {
      // The answer came while the projector still held its reply: only now does it answer.
      expect(hung.openConnections).toBe(1);
      release();
    }

    expect(answer.message).toBe('Checked 3 equipment: 3 answered, 1 still being checked');
    expect(answer.checkId).toEqual(expect.any(String));
    expect(answer.equipment).toEqual([
      { equipmentId: ids.hung, status: 'active', rttMs: expect.any(Number), probe: null, pending: true },
      {
        equipmentId: ids.quick,
        status: 'active',
        rttMs: expect.any(Number),
        probe: { type: 'pjlink', outcome: 'answered' },
      },
      { equipmentId: ids.display, status: 'active', rttMs: expect.any(Number), probe: null },
    ]);

    const late = await eventually(() => {
      const found = checked.of(answer.checkId!, ids.hung);
      expect(found).toHaveLength(1);
      return found[0];
    });
    expect(late).toEqual({
      equipmentId: ids.hung,
      status: 'active',
      rttMs: expect.any(Number),
      probe: { type: 'pjlink', outcome: 'answered' },
    });
    // Published as a sweep's readings are, for inventory to record; the others came only once.
    expect(readings.of(ids.hung).at(-1)).toMatchObject({ outcome: 'answered', deviceName: 'Held projector' });
    expect(checked.all.filter((e) => e.checkId === answer.checkId).flatMap((e) => e.equipment)).toHaveLength(
      1,
    );
  });

  it('answers while a device has not answered its ping, marks it pending, then delivers its status', async () => {
    const display = holdPingsTo(sut, DISPLAY);
    let answer;
    try {
      answer = await checkRoom();
    } finally {
      expect(display.held()).toBe(1);
      display.release();
    }
    expect(answer.message).toBe('Checked 3 equipment: 2 answered, 1 still being checked');
    expect(answer.equipment[2]).toEqual({
      equipmentId: ids.display,
      status: null,
      rttMs: null,
      probe: null,
      pending: true,
    });
    const late = await eventually(() => {
      const found = checked.of(answer.checkId!, ids.display);
      expect(found).toHaveLength(1);
      return found[0];
    });
    expect(late).toEqual({
      equipmentId: ids.display,
      status: 'active',
      rttMs: expect.any(Number),
      probe: null,
    });
    expect(checked.all.find((e) => e.checkId === answer.checkId)?.recorded).toEqual(expect.any(Boolean));
  });

  it('announces nothing late when everything answered in time', async () => {
    const answer = await checkRoom();
    expect(answer.equipment.some((e) => e.pending)).toBe(false);
    expect(answer.message).toBe('Checked 3 equipment: 3 answered');
    // Announcements of later checks come after this one's, had it any: a later check's proves it has none.
    const release = hung.holdAnswers();
    const next = await checkRoom().finally(release);
    await eventually(() => expect(checked.of(next.checkId!, ids.hung)).toHaveLength(1));
    expect(checked.all.filter((e) => e.checkId === answer.checkId)).toEqual([]);
  });
});
