import { messages } from '@cm/contracts';
import { dropNamespace, type Inventory, newNamespace, startInventory } from './support';

describe('inventory service', () => {
  const namespace = newNamespace();
  let sut: Inventory;

  beforeAll(async () => {
    sut = await startInventory(namespace);
  });
  afterAll(async () => {
    await sut?.close();
    await dropNamespace(namespace);
  });

  it('answers its health pattern over NATS with PostgreSQL up', async () => {
    const report = await sut.rpc.send(messages.inventory.health);
    expect(report.status).toBe('up');
    expect(report.checks.postgres.status).toBe('up');
    expect(report.checks.jetstream.status).toBe('up');
  });

  it('serves liveness and readiness probes over HTTP', async () => {
    const base = await sut.app.getUrl();
    await expect(fetch(`${base}/healthz`).then((r) => r.json())).resolves.toEqual({ status: 'up' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
  });
});
