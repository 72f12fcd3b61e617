import { messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { probeReadings } from './probe-readings';
import { channelsTestEnv, startReceiver } from './receivers';
import { inventoryUnderTest, sql } from './support';

const start = Date.now() - 3_600_000;
const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

describe('alerts on device health', () => {
  const inventory = inventoryUnderTest(channelsTestEnv());
  const { make, send } = inventory;
  const { publish, recorded } = probeReadings(inventory);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string | undefined;
  let roomId: string;

  beforeAll(async () => {
    receiver = await startReceiver(() => secret);
    const building = await make.building({ name: 'Science Hall' });
    roomId = (await make.room(building.id, { name: '204' })).id;
    const channel = await send(messages.inventory.createChannel, {
      name: 'AV team',
      type: 'webhook',
      url: receiver.url,
      buildingIds: [building.id],
    });
    secret = channel.secret ?? undefined;
  });
  afterAll(() => receiver?.close());

  /** The messages queued about a device, oldest first. */
  const queued = (id: string) =>
    sql<{ kind: string; text: string }>(
      inventory.sut,
      `SELECT kind, payload->>'text' AS text FROM inv.deliveries
        WHERE payload->'data'->'equipment'->>'id' = $1 ORDER BY created_at`,
      [id],
    );
  const read = async (id: string, minute: number, over: object = {}) => {
    await publish([{ equipmentId: id, checkedAt: at(minute), ...over }]);
    await recorded(id, at(minute));
  };

  it('tells of a wrong password once, however many probes it refuses, and of its end', async () => {
    const { id } = await make.equipment(roomId, {
      name: 'Projector',
      ipAddress: '10.1.2.3',
      probe: { type: 'pjlink' },
    });
    await read(id, 1);
    for (const minute of [2, 3, 4]) await read(id, minute, { outcome: 'auth-failed' });
    await read(id, 5);
    expect(await queued(id)).toEqual([
      { kind: 'fault.opened', text: 'Projector (10.1.2.3), Room 204, Science Hall: Wrong PJLink password' },
      { kind: 'fault.recovered', text: 'Projector (10.1.2.3), Room 204, Science Hall: no fault any more' },
    ]);
    await eventually(() =>
      expect(receiver.received.filter((r) => r.body.kind === 'fault.opened')).toEqual([
        expect.objectContaining({
          signatureValid: true,
          body: expect.objectContaining({
            data: expect.objectContaining({ health: { state: 'error', reasons: ['Wrong PJLink password'] } }),
          }),
        }),
      ]),
    );
  });

  it('tells of a wrong password found after the device stopped answering, and of a fault getting worse', async () => {
    const { id } = await make.equipment(roomId, {
      name: 'Display',
      ipAddress: '10.1.2.4',
      probe: { type: 'pjlink' },
    });
    await read(id, 1, { findings: [{ state: 'warning', reason: 'Filter warning' }] });
    await read(id, 2, { outcome: 'unreachable' });
    await read(id, 3, { outcome: 'auth-failed' });
    expect((await queued(id)).map((m) => m.text)).toEqual([
      'Display (10.1.2.4), Room 204, Science Hall: Filter warning',
      'Display (10.1.2.4), Room 204, Science Hall: No answer from PJLink on port 4352',
      'Display (10.1.2.4), Room 204, Science Hall: Wrong PJLink password',
    ]);
  });

  it('tells nothing of devices offline or in maintenance, nor an end of a fault never told', async () => {
    const offline = await make.equipment(roomId, {
      name: 'Camera',
      ipAddress: '10.1.2.5',
      status: 'inactive',
      probe: { type: 'pjlink' },
    });
    const serviced = await make.equipment(roomId, {
      name: 'Speaker',
      ipAddress: '10.1.2.6',
      status: 'maintenance',
      probe: { type: 'pjlink' },
    });
    for (const { id } of [offline, serviced]) {
      await read(id, 1, { outcome: 'unreachable' });
      await read(id, 2);
      expect(await queued(id)).toEqual([]);
    }
  });
});
