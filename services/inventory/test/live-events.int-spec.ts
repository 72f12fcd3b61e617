import {
  type Equipment,
  events,
  liveEventType,
  messages,
  namespacedName,
  type StatusEvent,
  streams,
} from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { type ConsumerMessages, DeliverPolicy, JSONCodec } from 'nats';
import { inventoryUnderTest, metricValue, monitorOf } from './support';

interface Received {
  type: string;
  data: Record<string, unknown>;
  /** What inventory answered for the event's equipment list when the event arrived. */
  committed?: Equipment[];
}

const check = (equipmentId: string, status: StatusEvent['status']) => ({
  equipmentId,
  status,
  checkedAt: new Date().toISOString(),
  rttMs: status === 'active' ? 0.3 : null,
  results: [{ address: '127.0.0.1', alive: status === 'active', rttMs: status === 'active' ? 0.3 : null }],
});

/** Open screens' side, as each gateway follows it: the live stream from now on. */
describe('live events from inventory', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  let js: JetStreamConnection;
  let messagesIn: ConsumerMessages;
  const received: Received[] = [];
  let wake = () => {};
  const json = JSONCodec<Record<string, unknown>>();

  /** The next live event, in stream order. */
  let read = 0;
  const next = async (): Promise<Received> => {
    const deadline = Date.now() + 10_000;
    while (received.length <= read) {
      if (Date.now() > deadline) throw new Error(`No live event; got ${JSON.stringify(received)}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
    return received[read++];
  };

  beforeAll(async () => {
    js = await monitorOf(inventory.namespace);
    await js.ensureStream(streams.live);
    const consumer = await js.js.consumers.get(namespacedName(inventory.namespace, streams.live.name), {
      deliver_policy: DeliverPolicy.New,
    });
    messagesIn = await consumer.consume();
    void (async () => {
      for await (const msg of messagesIn) {
        const type = liveEventType(msg.subject.slice(inventory.namespace.length + 1));
        const data = json.decode(msg.data);
        const change = (data.changes as { roomId: string }[] | undefined)?.[0];
        // Read as the event arrives: a screen refetching at once must find the change committed.
        const committed = change
          ? await send(messages.inventory.listEquipment, { roomId: change.roomId })
          : undefined;
        received.push({ type, data, committed });
        wake();
      }
    })();
  });
  afterAll(async () => {
    messagesIn?.stop();
    await js?.close();
  });

  it('announces the statuses a batch of checks changed in one event, with their parents, after the commit', async () => {
    const building = await make.building({ name: 'Live Hall' });
    const room = await make.room(building.id);
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => make.equipment(room.id, { name })));
    await Promise.all([next(), next(), next(), next(), next()]); // building, room, three equipment

    const batch = {
      sweepId: 'sweep-1',
      checks: [check(a.id, 'inactive'), check(b.id, 'inactive'), check(c.id, 'active')],
    };
    await js.publish(events.statusChecked, batch, { msgId: 'live-1' });
    const status = await next();
    expect(status.type).toBe('equipment.status');
    const changes = status.data.changes as Record<string, unknown>[];
    expect(changes.map((x) => x.equipmentId).sort()).toEqual([a.id, b.id].sort());
    for (const change of changes) {
      expect(change).toEqual({
        equipmentId: change.equipmentId,
        roomId: room.id,
        buildingId: building.id,
        status: 'inactive',
        lastCheckedAt: batch.checks.find((c) => c.equipmentId === change.equipmentId)!.checkedAt,
        rttMs: null,
      });
    }
    expect(
      status
        .committed!.filter((e) => e.status === 'inactive')
        .map((e) => e.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());

    // The same checks again change nothing: the next event is the next change, not a repeat.
    await js.publish(events.statusChecked, batch, { msgId: 'live-2' });
    await js.publish(
      events.statusChecked,
      { sweepId: 'sweep-2', checks: [check(c.id, 'inactive')] },
      { msgId: 'live-3' },
    );
    const following = await next();
    expect((following.data.changes as { equipmentId: string }[]).map((x) => x.equipmentId)).toEqual([c.id]);
  });

  it('announces creates, updates and deletes with their parents', async () => {
    const building = await make.building({ name: 'Parent Hall' });
    const room = await make.room(building.id);
    const equipment = await make.equipment(room.id);
    await send(messages.inventory.updateBuilding, { id: building.id, changes: { name: 'Parent Hall 2' } });
    await send(messages.inventory.deleteEquipment, { id: equipment.id });
    await send(messages.inventory.deleteRoom, { id: room.id });
    const seen = [await next(), await next(), await next(), await next(), await next(), await next()];
    expect(seen.map((e) => e.type)).toEqual(Array(6).fill('inventory.changed'));
    // Events of different records may pass one another (an equipment's waits for its building to be
    // read); screens only refetch on them, so what matters is that each is announced.
    const announced = seen.map((e) => e.data);
    expect(announced).toHaveLength(6);
    expect(announced).toEqual(
      expect.arrayContaining([
        { kind: 'building', action: 'created', id: building.id },
        { kind: 'room', action: 'created', id: room.id, buildingId: building.id },
        { kind: 'equipment', action: 'created', id: equipment.id, roomId: room.id, buildingId: building.id },
        { kind: 'building', action: 'updated', id: building.id },
        { kind: 'equipment', action: 'deleted', id: equipment.id, roomId: room.id, buildingId: building.id },
        { kind: 'room', action: 'deleted', id: room.id, buildingId: building.id },
      ]),
    );
  });

  it('announces maintenance windows with the room and building whose screens show them', async () => {
    const building = await make.building({ name: 'Window Hall' });
    const room = await make.room(building.id);
    const equipment = await make.equipment(room.id);
    await Promise.all([next(), next(), next()]); // building, room, equipment
    const times = {
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'Lamp',
    };
    const kind = 'maintenanceWindow';

    const onEquipment = await send(messages.inventory.createMaintenanceWindow, {
      equipmentId: equipment.id,
      ...times,
    });
    const created = await next();
    expect(created.type).toBe('inventory.changed');
    expect(created.data).toEqual({
      kind,
      action: 'created',
      id: onEquipment.id,
      roomId: room.id,
      buildingId: building.id,
    });
    const onBuilding = await send(messages.inventory.createMaintenanceWindow, {
      buildingId: building.id,
      ...times,
    });
    expect((await next()).data).toEqual({
      kind,
      action: 'created',
      id: onBuilding.id,
      buildingId: building.id,
    });
    await send(messages.inventory.deleteMaintenanceWindow, { id: onEquipment.id });
    expect((await next()).data).toEqual({
      kind,
      action: 'deleted',
      id: onEquipment.id,
      roomId: room.id,
      buildingId: building.id,
    });
  });
});

/** The live stream away for a while (NATS restarting, the stream recreated): nothing is lost. */
describe('live events held back while they cannot be published', () => {
  const inventory = inventoryUnderTest();
  const { make } = inventory;
  let js: JetStreamConnection;

  beforeAll(async () => {
    js = await monitorOf(inventory.namespace);
  });
  afterAll(() => js?.close());

  /** Every event the stream holds, in order, once it holds at least `count`. */
  const streamed = async (count: number) => {
    const stream = namespacedName(inventory.namespace, streams.live.name);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { state } = await js.jsm.streams.info(stream);
      if (state.messages >= count) break;
      if (Date.now() > deadline)
        throw new Error(`The live stream holds ${state.messages} of ${count} events`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const json = JSONCodec<Record<string, unknown>>();
    const found: { type: string; data: Record<string, unknown> }[] = [];
    for (let seq = 1; seq <= count; seq++) {
      const msg = await js.jsm.streams.getMessage(stream, { seq });
      found.push({
        type: liveEventType(msg.subject.slice(inventory.namespace.length + 1)),
        data: json.decode(msg.data),
      });
    }
    return found;
  };

  it('publishes what committed meanwhile once the stream is back, each device at its latest status', async () => {
    const building = await make.building({ name: 'Outage Hall' });
    const room = await make.room(building.id);
    const projector = await make.equipment(room.id, { name: 'Projector' });
    // The projector's "created" is published after its commit; deleting the stream before it lands
    // would hold it back too, and it would come out first.
    const before = await streamed(3);
    expect(before.map((event) => event.data.id)).toContain(projector.id);
    const monitor = await js.js.jetstreamManager();
    await monitor.streams.delete(namespacedName(inventory.namespace, streams.live.name));

    // The writes go on, answered as ever; a device goes down and comes back, another goes down.
    const display = await make.equipment(room.id, { name: 'Display' });
    for (const [id, status, sweep] of [
      [projector.id, 'inactive', 'o-1'],
      [projector.id, 'active', 'o-2'],
      [display.id, 'inactive', 'o-3'],
    ] as const) {
      await js.publish(
        events.statusChecked,
        { sweepId: sweep, checks: [check(id, status)] },
        { msgId: sweep },
      );
    }
    await eventually(async () => {
      const listed = await inventory.send(messages.inventory.listEquipment, { roomId: room.id });
      expect(listed.find((e) => e.id === display.id)?.status).toBe('inactive');
    });

    // What an operator sees meanwhile: refusals counted, and one event's worth held per record
    // change and per device (the display's creation, two statuses).
    await eventually(async () => {
      expect(await metricValue(inventory.sut, 'cm_inventory_live_events_held')).toBe(3);
      expect(
        await metricValue(inventory.sut, 'cm_inventory_live_event_publish_failures_total'),
      ).toBeGreaterThan(0);
    });

    await js.ensureStream(streams.live);
    const found = await streamed(2);
    await eventually(async () =>
      expect(await metricValue(inventory.sut, 'cm_inventory_live_events_held')).toBe(0),
    );

    expect(found[0]).toEqual({
      type: 'inventory.changed',
      data: {
        kind: 'equipment',
        action: 'created',
        id: display.id,
        roomId: room.id,
        buildingId: building.id,
      },
    });
    expect(found[1].type).toBe('equipment.status');
    const latest = Object.fromEntries(
      (found[1].data.changes as { equipmentId: string; status: string }[]).map((c) => [
        c.equipmentId,
        c.status,
      ]),
    );
    expect(latest).toEqual({ [projector.id]: 'active', [display.id]: 'inactive' });
  });
});
