import { randomUUID } from 'node:crypto';
import { messages, type RoomCheckRequest } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type PjlinkSimulator, startPjlinkSimulator } from '@cm/simulators';
import {
  dropNamespace,
  FakeInventory,
  HealthReadings,
  joined,
  newNamespace,
  type Replica,
  startReplica,
  StatusEvents,
} from './support';

const PROJECTOR = '127.0.46.1';

/**
 * "Check this room now": one replica, monitoring stopped, real ICMP to loopback, a simulated
 * projector probed over a real socket, real NATS and JetStream.
 */
describe('room check', () => {
  const namespace = newNamespace();
  let inventory: FakeInventory;
  let statuses: StatusEvents;
  let readings: HealthReadings;
  let projector: PjlinkSimulator;
  let sut: Replica;
  const ids = {
    projector: randomUUID(),
    range: randomUUID(),
    noAddress: randomUUID(),
    outside: randomUUID(),
    elsewhere: randomUUID(),
  };
  const room: RoomCheckRequest = {
    roomId: randomUUID(),
    equipment: [
      { equipmentId: ids.projector, ipAddress: PROJECTOR },
      { equipmentId: ids.range, ipAddress: '127.0.46.10-12' },
      { equipmentId: ids.noAddress, ipAddress: null },
      // TEST-NET-1, outside MONITOR_ALLOWED_NETWORKS: never pinged.
      { equipmentId: ids.outside, ipAddress: '192.0.2.1' },
    ],
  };
  const checkRoom = (request = room) =>
    sut.rpc.send(messages.monitor.checkRoom, request, { timeoutMs: 15_000 });

  beforeAll(async () => {
    projector = await startPjlinkSimulator({ host: PROJECTOR, class: 1, name: 'Room 101 projector' });
    inventory = await FakeInventory.start(namespace);
    inventory.add(PROJECTOR, { equipmentId: ids.projector });
    inventory.add('127.0.46.20', { equipmentId: ids.elsewhere });
    statuses = await StatusEvents.listen(namespace);
    sut = await startReplica(namespace);
    await joined(sut);
    readings = await HealthReadings.listen(namespace);
    await inventory.setProbe({
      equipmentId: ids.projector,
      address: PROJECTOR,
      probe: { type: 'pjlink', port: projector.port, intervalSeconds: 3600 },
      secrets: {},
    });
  });

  afterAll(async () => {
    await sut?.close();
    await readings?.close();
    await statuses?.close();
    await inventory?.close();
    await projector?.close();
    await dropNamespace(namespace);
  });

  it("pings and probes only the room's equipment while monitoring is stopped, and answers each", async () => {
    // The probe settings reach the replica shortly after they change.
    const result = await eventually(async () => {
      const answer = await checkRoom();
      expect(answer.equipment[0].probe).not.toBeNull();
      return answer;
    });

    expect(result).toMatchObject({
      roomId: room.roomId,
      recorded: true,
      message: 'Checked 2 equipment: 2 answered',
    });
    expect(result.equipment).toEqual([
      {
        equipmentId: ids.projector,
        status: 'active',
        rttMs: expect.any(Number),
        probe: { type: 'pjlink', outcome: 'answered' },
      },
      { equipmentId: ids.range, status: 'active', rttMs: expect.any(Number), probe: null },
      { equipmentId: ids.noAddress, status: null, rttMs: null, probe: null, skipped: 'No IP address' },
      {
        equipmentId: ids.outside,
        status: null,
        rttMs: null,
        probe: null,
        skipped: expect.stringContaining('192.0.2.1'),
      },
    ]);
    expect(await sut.rpc.send(messages.monitor.status)).toMatchObject({ isRunning: false });
  });

  it('publishes its checks and readings as a sweep does, for inventory to record, and nothing of other rooms', async () => {
    await eventually(() => {
      expect(statuses.latestFor(ids.projector)).toMatchObject({ status: 'active' });
      expect(statuses.latestFor(ids.range)?.results.map((r) => r.address)).toEqual([
        '127.0.46.10',
        '127.0.46.11',
        '127.0.46.12',
      ]);
      expect(readings.of(ids.projector).at(-1)).toMatchObject({
        outcome: 'answered',
        deviceName: 'Room 101 projector',
      });
    });
    expect(statuses.all.filter((e) => e.equipmentId === ids.elsewhere)).toEqual([]);
    expect(
      statuses.all.filter((e) => e.equipmentId === ids.outside || e.equipmentId === ids.noAddress),
    ).toEqual([]);
  });

  it('reads a probe that finds no device as unreachable, not as a failed check', async () => {
    await projector.close();
    const result = await checkRoom({ roomId: room.roomId, equipment: [room.equipment[0]] });
    expect(result.equipment[0]).toMatchObject({
      status: 'active',
      probe: { type: 'pjlink', outcome: 'unreachable' },
    });
  });

  it('answers a room without equipment plainly', async () => {
    expect(await checkRoom({ roomId: randomUUID(), equipment: [] })).toMatchObject({
      equipment: [],
      message: 'No equipment in this room has an address to check',
    });
  });
});
