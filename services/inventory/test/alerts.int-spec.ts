import { type Equipment, ErrorCode, messages } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { DELIVERY_CLOCK } from '../src/alerting/notifications/delivery-clock';
import { DeliveryRelay } from '../src/alerting/notifications/delivery.relay';
import {
  channelsTestEnv,
  pendingDelivery,
  type Received,
  smtpForTests,
  startReceiver,
  webhookChannel,
} from './receivers';
import { failureOf, type Inventory, inventoryUnderTest, monitorOf, sql, startInventory } from './support';
import { publishSweep, type SweptCheck } from './support/status-sweep';
import { HeldClock } from './support/timetable';

const WINDOW_MS = 1000;
const env: Record<string, string> = {
  ...channelsTestEnv(),
  ALERTS_RETRY_MAX_MS: '400',
  ALERTS_MAX_ATTEMPTS: '50',
  ALERT_AFTER_FAILED_CHECKS: '2',
  ALERT_GROUP_WINDOW_MS: String(WINDOW_MS),
  ALERT_FLAP_THRESHOLD: '4',
  ALERTS_APP_URL: 'https://monitor.campus.edu/',
};

type Status = SweptCheck[1];
/** A mail's body as a person reads it: quoted-printable undone. */
const readable = (data: string) =>
  Buffer.from(
    data
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the alert engine', () => {
  const smtp = smtpForTests(env);

  const inventory = inventoryUnderTest(env);
  const { make, send } = inventory;
  let monitor: JetStreamConnection;
  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
  });
  afterAll(() => monitor?.close());

  /** One sweep of the monitor: a batch message per group of devices, published together. */
  const sweep = (...groups: SweptCheck[][]) => publishSweep(monitor, inventory.namespace, ...groups);
  const all = (devices: Equipment[], status: Status) => [
    devices.map((d): [Equipment, Status] => [d, status]),
  ];

  /** A building with room 204 and its devices (addresses on loopback), and a webhook for the building. */
  async function campus(names = ['Projector', 'Display', 'Camera', 'Microphone', 'Speaker']) {
    const building = await make.building({ name: 'Science Hall' });
    const room = await make.room(building.id, { name: '204' });
    const devices: Equipment[] = [];
    for (const [i, name] of names.entries()) {
      devices.push(await make.equipment(room.id, { name, ipAddress: `127.0.${randomOctet()}.${i + 2}` }));
    }
    return { building, room, devices, ...(await webhookChannel(inventory, building.id)) };
  }
  let octet = 0;
  const randomOctet = () => (octet = (octet % 250) + 1);
  const kinds = (received: Received[]) => received.map((r) => r.body.kind);
  const texts = (received: Received[]) => received.map((r) => r.body.text);
  /** Long enough for a message that would go out to have gone: the window and a few relay rounds. */
  const quietFor = () => sleep(WINDOW_MS + 800);

  /**
   * Stops the delivery clocks of the inventories under test at a moment the test moves by hand: no
   * group window runs out while a loaded machine handles the sweeps.
   */
  function holdClock(...replicas: Inventory[]) {
    const clock = new HeldClock(new Date().toISOString());
    const held = (replicas.length ? replicas : [inventory.sut]).map((r) => clock.hold(r, [DELIVERY_CLOCK]));
    return {
      advance: (ms: number) => (clock.at += ms),
      /** Once a message of `kind` waits for `channelId`, moves the clock past its window. */
      async release(channelId: string, kind: string) {
        await pendingDelivery(inventory.sut, channelId, kind);
        clock.at += WINDOW_MS;
      },
      restore: () => held.forEach((restore) => restore()),
    };
  }

  it('sends one message per room, updated while it waits, and one recovery, by webhook and e-mail', async () => {
    const { building, devices, receiver } = await campus();
    const mail = await send(messages.inventory.createChannel, {
      name: 'AV desk',
      type: 'email',
      recipients: ['av-desk@example.edu'],
      buildingIds: [building.id],
    });
    const mailsBefore = smtp.mails.length;
    const [projector, display] = devices;
    const clock = holdClock();
    try {
      await sweep(all([projector], 'inactive')[0]);
      await sweep([
        [projector, 'inactive'],
        [display, 'partial'],
      ]);
      // The projector opened the room's alert; the display fails within the window and joins it.
      await sweep([[display, 'partial']]);
      // A round of the relay sends what is due, and the window has not run out yet.
      await inventory.sut.app.get(DeliveryRelay).flush();
      expect(receiver.received).toHaveLength(0);
      clock.advance(WINDOW_MS);
      await eventually(() => expect(receiver.received).toHaveLength(1));
      await quietFor();
      expect(receiver.received).toHaveLength(1);
      const [opened] = receiver.received;
      expect(opened.signatureValid).toBe(true);
      expect(opened.body).toMatchObject({
        version: 2,
        kind: 'alert.opened',
        text: `Room 204, Science Hall: 2 of 5 devices offline — Display (${display.ipAddress}, partly answering), Projector (${projector.ipAddress})`,
        url: `https://monitor.campus.edu/rooms/${projector.roomId}`,
        alert: {
          room: { name: '204' },
          building: { id: building.id, name: 'Science Hall' },
          monitored: 5,
          devices: [
            { id: display.id, name: 'Display', address: display.ipAddress, status: 'partial' },
            { id: projector.id, name: 'Projector', address: projector.ipAddress, status: 'inactive' },
          ],
        },
      });
      const [open] = await send(messages.inventory.listOpenAlerts, { roomId: projector.roomId });
      expect(open).toMatchObject({
        id: (opened.body.alert as { id: string }).id,
        room: { id: projector.roomId, name: '204' },
        monitored: 5,
        devices: [
          { name: 'Display', status: 'partial', since: expect.any(String) },
          { name: 'Projector', status: 'inactive', since: expect.any(String) },
        ],
      });
      expect(await send(messages.inventory.listOpenAlerts, { buildingId: building.id })).toEqual([open]);
      const mails = () => smtp.mails.slice(mailsBefore).filter((m) => m.to.includes('av-desk@example.edu'));
      await eventually(() => expect(mails()).toHaveLength(1));
      expect(mails()[0].data).toContain('Subject: Room 204, Science Hall: 2 of 5 devices offline\r\n');
      // The mail's last line is the link to the room, as the webhook's `url`.
      expect(readable(mails()[0].data).replace(/\r\n/g, '\n')).toContain(
        `${opened.body.text as string}\nhttps://monitor.campus.edu/rooms/${projector.roomId}`,
      );

      // Both answer again: the room's alert closes with one message, however many devices it had.
      await sweep([[projector, 'active']]);
      await sweep([[display, 'active']]);
      // The projector's return waited in the window as an update, which the display's made the recovery.
      clock.advance(WINDOW_MS);
      await eventually(() => expect(kinds(receiver.received)).toEqual(['alert.opened', 'alert.recovered']));
      expect(receiver.received[1].body.text).toMatch(
        /^Room 204, Science Hall: all devices back online after \d+ s$/,
      );
      await eventually(() => expect(mails()).toHaveLength(2));
      await quietFor();
      expect(receiver.received).toHaveLength(2);
      expect(mails()[1].data).toContain('all devices back online');
      expect(await send(messages.inventory.listOpenAlerts, { roomId: projector.roomId })).toEqual([]);
    } finally {
      clock.restore();
      await receiver.close();
      await send(messages.inventory.deleteChannel, { id: mail.id });
    }
  });

  it('sends nothing for a single failed check (ALERT_AFTER_FAILED_CHECKS=2)', async () => {
    const { devices, receiver } = await campus(['Projector']);
    try {
      await sweep(all(devices, 'inactive')[0]);
      await sweep(all(devices, 'active')[0]);
      await sweep(all(devices, 'inactive')[0]);
      await quietFor();
      expect(receiver.received).toHaveLength(0);
      await sweep(all(devices, 'inactive')[0]);
      await eventually(() => expect(kinds(receiver.received)).toEqual(['alert.opened']));
    } finally {
      await receiver.close();
    }
  });

  it('sends an update for a device failing after the first message went out', async () => {
    const { devices, receiver, channel } = await campus(['Projector', 'Display']);
    const [projector, display] = devices;
    const clock = holdClock();
    try {
      await sweep(all([projector], 'inactive')[0]);
      await sweep(all([projector], 'inactive')[0]);
      await clock.release(channel.id, 'alert.opened');
      await eventually(() => expect(receiver.received).toHaveLength(1));
      await sweep(all([display], 'inactive')[0]);
      await sweep(all([display], 'inactive')[0]);
      await clock.release(channel.id, 'alert.updated');
      await eventually(() => expect(kinds(receiver.received)).toEqual(['alert.opened', 'alert.updated']));
      expect(texts(receiver.received)).toEqual([
        `Room 204, Science Hall: 1 of 2 devices offline — Projector (${projector.ipAddress})`,
        `Room 204, Science Hall: 2 of 2 devices offline — Display (${display.ipAddress}), Projector (${projector.ipAddress})`,
      ]);
      // Deleted equipment leaves the alert too.
      await sweep(all([projector], 'active')[0]);
      await send(messages.inventory.deleteEquipment, { id: display.id });
      await clock.release(channel.id, 'alert.recovered');
      await eventually(() =>
        expect(kinds(receiver.received)).toEqual(['alert.opened', 'alert.updated', 'alert.recovered']),
      );
      expect(receiver.received[2].body.text).toMatch(/no devices offline any more/);
    } finally {
      clock.restore();
      await receiver.close();
    }
  });

  it('takes equipment a person sets to maintenance, or whose address is removed, out of its alert', async () => {
    const { devices, receiver, channel } = await campus(['Projector', 'Display']);
    const [projector, display] = devices;
    const clock = holdClock();
    try {
      await sweep(all(devices, 'inactive')[0]);
      await sweep(all(devices, 'inactive')[0]);
      await clock.release(channel.id, 'alert.opened');
      await eventually(() => expect(receiver.received).toHaveLength(1));
      expect(receiver.received[0].body.text).toMatch(/: 2 of 2 devices offline — /);
      await send(messages.inventory.updateEquipment, {
        id: projector.id,
        changes: { name: 'Projector', status: 'maintenance' },
      });
      await send(messages.inventory.updateEquipment, {
        id: display.id,
        changes: { name: 'Display', ipAddress: null },
      });
      // The update for the projector waited in the window; the display's change made it the recovery.
      await clock.release(channel.id, 'alert.recovered');
      await eventually(() => expect(kinds(receiver.received)).toEqual(['alert.opened', 'alert.recovered']));
      expect(receiver.received[1].body.text).toMatch(
        /^Room 204, Science Hall: no devices offline any more after \d+ s$/,
      );
      expect(await send(messages.inventory.listOpenAlerts, { roomId: projector.roomId })).toEqual([]);
    } finally {
      clock.restore();
      await receiver.close();
    }
  });

  it('opens no alert for equipment inside a maintenance window', async () => {
    const { room, devices, receiver } = await campus(['Projector']);
    try {
      await send(messages.inventory.createMaintenanceWindow, {
        roomId: room.id,
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        reason: 'Lamp replacement',
      });
      for (let i = 0; i < 3; i++) await sweep(all(devices, 'inactive')[0]);
      await quietFor();
      expect(receiver.received).toHaveLength(0);
      expect(await sql(inventory.sut, 'SELECT 1 FROM inv.alerts WHERE room_id = $1', [room.id])).toHaveLength(
        0,
      );
    } finally {
      await receiver.close();
    }
  });

  it('reports a flapping device once, then keeps quiet', async () => {
    const { devices, receiver } = await campus(['Projector']);
    const [projector] = devices;
    const cycle = async (expected: string[]) => {
      await sweep(all(devices, 'inactive')[0]);
      await sweep(all(devices, 'inactive')[0]);
      await eventually(() => expect(kinds(receiver.received)).toEqual(expected));
      await sweep(all(devices, 'active')[0]);
    };
    try {
      await cycle(['alert.opened']);
      await eventually(() => expect(receiver.received).toHaveLength(2));
      await cycle(['alert.opened', 'alert.recovered', 'alert.opened']);
      await eventually(() => expect(receiver.received).toHaveLength(4));
      // The fifth change in the hour (threshold 4): reported as flapping instead of opening.
      const flapping = [
        ...['alert.opened', 'alert.recovered', 'alert.opened', 'alert.recovered'],
        'alert.flapping',
      ];
      await cycle(flapping);
      expect(receiver.received[4].body.text).toBe(
        `Room 204, Science Hall: Projector (${projector.ipAddress}) is flapping: 5 changes in the last hour`,
      );
      for (let i = 0; i < 2; i++) {
        await sweep(all(devices, 'inactive')[0]);
        await sweep(all(devices, 'inactive')[0]);
        await sweep(all(devices, 'active')[0]);
      }
      await quietFor();
      expect(kinds(receiver.received)).toEqual(flapping);
    } finally {
      await receiver.close();
    }
  });

  it('sends a message once, late, when the receiver was down', async () => {
    const { devices, receiver, channel } = await campus(['Projector']);
    const port = receiver.port;
    await receiver.close();
    await sweep(all(devices, 'inactive')[0]);
    await sweep(all(devices, 'inactive')[0]);
    // Refused a few times while nothing listens.
    await eventually(async () => {
      const [row] = await sql<{ attempts: number; state: string }>(
        inventory.sut,
        'SELECT attempts, state FROM inv.deliveries WHERE channel_id = $1',
        [channel.id],
      );
      expect(row.attempts).toBeGreaterThanOrEqual(3);
      expect(row.state).not.toBe('sent');
    }, 20_000);
    const back = await startReceiver(() => channel.secret!, port);
    try {
      await eventually(() => expect(back.received).toHaveLength(1));
      await quietFor();
      expect(kinds(back.received)).toEqual(['alert.opened']);
      expect(back.received[0].signatureValid).toBe(true);
    } finally {
      await back.close();
    }
  });

  it('lists the equipment behind a failing upstream device in its alert, and alerts for none of it', async () => {
    const { devices, receiver } = await campus(['Switch', 'Projector', 'Display']);
    const [sw, projector, display] = devices;
    for (const d of [projector, display]) {
      const updated = await send(messages.inventory.updateEquipment, {
        id: d.id,
        changes: { name: d.name, upstreamEquipmentId: sw.id },
      });
      expect(updated.upstreamEquipmentId).toBe(sw.id);
    }
    try {
      await sweep(all(devices, 'inactive')[0]);
      await sweep(all(devices, 'inactive')[0]);
      await eventually(() => expect(receiver.received).toHaveLength(1));
      await quietFor();
      expect(texts(receiver.received)).toEqual([
        `Room 204, Science Hall: 1 of 3 devices offline — Switch (${sw.ipAddress}); unreachable behind Switch: Display (${display.ipAddress}), Projector (${projector.ipAddress})`,
      ]);
      expect(receiver.received[0].body.alert).toMatchObject({
        devices: [
          {
            id: sw.id,
            behind: [
              { id: display.id, name: 'Display', address: display.ipAddress },
              { id: projector.id, name: 'Projector', address: projector.ipAddress },
            ],
          },
        ],
      });
      const [open] = await send(messages.inventory.listOpenAlerts, { roomId: sw.roomId });
      expect(open.devices.map((d) => [d.name, d.behind?.map((b) => b.name)])).toEqual([
        ['Switch', ['Display', 'Projector']],
      ]);

      await sweep(all(devices, 'active')[0]);
      await eventually(() => expect(kinds(receiver.received)).toEqual(['alert.opened', 'alert.recovered']));
      await quietFor();
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('refuses an upstream device that does not exist, is the device itself, or is behind it', async () => {
    const building = await make.building();
    const room = await make.room(building.id);
    const router = await make.equipment(room.id, { name: 'Router' });
    const sw = await make.equipment(room.id, { name: 'Switch', upstreamEquipmentId: router.id });
    expect(sw.upstreamEquipmentId).toBe(router.id);
    // The choices the form lists: the building's equipment, each with its room.
    expect(await send(messages.inventory.listBuildingEquipment, { buildingId: building.id })).toEqual([
      { id: router.id, name: 'Router', ipAddress: null, roomId: room.id, roomName: room.name },
      { id: sw.id, name: 'Switch', ipAddress: null, roomId: room.id, roomName: room.name },
    ]);
    const refusal = (message: string) => ({
      code: ErrorCode.VALIDATION_FAILED,
      errors: [{ path: 'upstreamEquipmentId', message }],
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await failureOf(make.equipment(room.id, { upstreamEquipmentId: unknown }))).toMatchObject(
      refusal(`Upstream device ${unknown} does not exist: choose another device`),
    );
    const edit = (id: string, upstreamEquipmentId: string) =>
      send(messages.inventory.updateEquipment, { id, changes: { name: 'Router', upstreamEquipmentId } });
    expect(await failureOf(edit(router.id, router.id))).toMatchObject(
      refusal('A device cannot be its own upstream device'),
    );
    expect(await failureOf(edit(router.id, sw.id))).toMatchObject(
      refusal(
        'Switch is reached through this device: it cannot also be its upstream device (that would be a loop)',
      ),
    );
    // Deleting the upstream leaves its dependents without one.
    await send(messages.inventory.deleteEquipment, { id: router.id });
    const [left] = await send(messages.inventory.listEquipment, { roomId: room.id });
    expect(left).toMatchObject({ name: 'Switch', upstreamEquipmentId: null });
  });

  it("outside teaching hours, gathers a building's alerts into one morning digest, or drops them", async () => {
    const { building, room, devices, receiver, channel } = await campus(['Projector']);
    const annex = await make.room(building.id, { name: '205' });
    const display = await make.equipment(annex.id, { name: 'Display', ipAddress: '127.0.9.9' });
    // Teaching hours of one hour, every day, starting 12 hours from now (UTC): now is outside them.
    const start = new Date(Date.now() + 12 * 3_600_000);
    start.setUTCMinutes(0, 0, 0);
    const hh = String(start.getUTCHours()).padStart(2, '0');
    const hours = { days: [1, 2, 3, 4, 5, 6, 7], start: `${hh}:00`, end: `${hh}:59`, timeZone: 'UTC' };
    const set = await send(messages.inventory.setQuietHours, {
      buildingId: building.id,
      quietHours: { ...hours, outside: 'digest' },
    });
    expect(set).toEqual({
      buildingId: building.id,
      quietHours: { ...hours, outside: 'digest', idleRoomsWait: false },
    });
    const digests = () =>
      sql<{ kind: string; text: string; due: Date }>(
        inventory.sut,
        `SELECT kind, payload->>'text' AS text, next_attempt_at AS due FROM inv.deliveries WHERE channel_id = $1`,
        [channel.id],
      );
    try {
      await sweep([[devices[0], 'inactive']], [[display, 'inactive']]);
      await sweep([[devices[0], 'inactive']], [[display, 'inactive']]);
      await quietFor();
      expect(receiver.received).toHaveLength(0);
      const [digest, ...more] = await digests();
      expect(more).toEqual([]);
      expect(digest.kind).toBe('alert.digest');
      expect(digest.text.split('\n').sort()).toEqual(
        [
          'Science Hall, outside teaching hours:',
          `Room 204, Science Hall: 1 of 1 device offline — Projector (${devices[0].ipAddress})`,
          `Room 205, Science Hall: 1 of 1 device offline — Display (${display.ipAddress})`,
        ].sort(),
      );
      // Due when teaching starts.
      expect(digest.due.getTime()).toBe(start.getTime());

      // Dropped: the recoveries add nothing, and nothing goes out.
      await send(messages.inventory.setQuietHours, {
        buildingId: building.id,
        quietHours: { ...hours, outside: 'drop' },
      });
      await sweep([
        [devices[0], 'active'],
        [display, 'active'],
      ]);
      await quietFor();
      expect(receiver.received).toHaveLength(0);
      expect((await digests()).map((d) => d.text)).toEqual([digest.text]);

      // Without teaching hours, alerts go out at any hour again.
      await send(messages.inventory.setQuietHours, { buildingId: building.id, quietHours: null });
      expect(await send(messages.inventory.getQuietHours, { buildingId: room.buildingId })).toEqual({
        buildingId: building.id,
        quietHours: null,
      });
      await sweep([[devices[0], 'inactive']]);
      await sweep([[devices[0], 'inactive']]);
      await eventually(() => expect(kinds(receiver.received)).toEqual(['alert.opened']));
    } finally {
      await receiver.close();
    }
  });

  describe('with two replicas', () => {
    let second: Inventory;
    beforeAll(async () => {
      second = await startInventory(inventory.namespace, env);
    });
    afterAll(() => second?.close());

    it('sends each message once, with devices of one room failing in batches handled at the same time', async () => {
      const { devices, receiver } = await campus(['Projector', 'Display', 'Camera', 'Microphone']);
      const clock = holdClock(inventory.sut, second);
      try {
        // Each device in a batch of its own: the two replicas take them in parallel.
        const apart = (status: Status) => devices.map((d): [Equipment, Status][] => [[d, status]]);
        await sweep(...apart('inactive'));
        await sweep(...apart('inactive'));
        clock.advance(WINDOW_MS);
        await eventually(() => expect(receiver.received).toHaveLength(1));
        await sweep(...apart('active'));
        // The first returns waited in the window as updates, which the last made the recovery.
        clock.advance(WINDOW_MS);
        await eventually(() => expect(receiver.received).toHaveLength(2));
        await quietFor();
        expect(kinds(receiver.received)).toEqual(['alert.opened', 'alert.recovered']);
        expect(receiver.received[0].body.text).toMatch(/^Room 204, Science Hall: 4 of 4 devices offline — /);
        expect(new Set(receiver.received.map((r) => r.deliveryId)).size).toBe(2);
      } finally {
        clock.restore();
        await receiver.close();
      }
    });
  });
});
