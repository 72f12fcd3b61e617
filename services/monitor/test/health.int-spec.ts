import { type HealthReport, messages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { dropNamespace, FakeInventory, httpBase, newNamespace, type Replica, startReplica } from './support';

describe('monitor service health', () => {
  const namespace = newNamespace();
  let sut: Replica;
  let inventory: FakeInventory | undefined;

  beforeAll(async () => {
    sut = await startReplica(namespace);
  });
  afterAll(async () => {
    await sut?.close();
    await inventory?.close();
    await dropNamespace(namespace);
  });

  it('is not ready until it has the equipment list from inventory, then is', async () => {
    const before = await sut.rpc.send(messages.monitor.health);
    expect(before.status).toBe('down');
    expect(before.checks.equipmentList).toEqual(
      expect.objectContaining({
        status: 'down',
        critical: true,
        detail: expect.stringMatching(/not been loaded from inventory/),
      }),
    );
    // Pinging is its work: a rolling update keeps the old replica until this one has the list.
    const probe = await fetch(`${httpBase(sut)}/readyz`);
    expect(probe.status).toBe(503);
    expect(((await probe.json()) as HealthReport).status).toBe('down');

    inventory = await FakeInventory.start(namespace);
    inventory.add('127.0.0.1');
    const report = await eventually(
      async () => {
        const now = await sut.rpc.send(messages.monitor.health);
        expect(now.status).toBe('up');
        return now;
      },
      15_000,
      200,
    );
    expect(report.checks).toEqual({
      jetstream: expect.objectContaining({ status: 'up', critical: true }),
      equipmentList: expect.objectContaining({
        status: 'up',
        critical: true,
        detail: '1 equipment with an address',
      }),
    });
    const after = await fetch(`${httpBase(sut)}/readyz`);
    expect(after.status).toBe(200);
    expect(((await after.json()) as HealthReport).status).toBe('up');
  });
});
