import { messages } from '@cm/contracts';
import {
  dropNamespace,
  FakeInventory,
  httpBase,
  joined,
  newNamespace,
  type Replica,
  startReplica,
  StatusEvents,
} from './support';

/** A sweep given up at MONITOR_SWEEP_TIMEOUT_MS is counted, for the alert on incomplete sweeps. */
describe('an incomplete sweep', () => {
  const namespace = newNamespace();
  let inventory: FakeInventory;
  let statuses: StatusEvents;
  let sut: Replica;

  beforeAll(async () => {
    inventory = await FakeInventory.start(namespace);
    for (let i = 1; i <= 30; i++) inventory.add(`127.0.7.${i}`);
    statuses = await StatusEvents.listen(namespace);
    // 30 addresses at least 200 ms apart take 6 s or more, past the 1 s the sweep may take: a
    // slower machine only makes the share later still.
    sut = await startReplica(namespace, {
      MONITOR_PACKET_GAP_MS: '200',
      MONITOR_PING_TIMEOUT_MS: '200',
      MONITOR_PING_RETRIES: '0',
      MONITOR_SWEEP_TIMEOUT_MS: '1000',
    });
    await joined(sut);
  });

  afterAll(async () => {
    await sut?.close();
    await statuses?.close();
    await inventory?.close();
    await dropNamespace(namespace);
  });

  it('is counted as incomplete in cm_monitor_sweeps_total', async () => {
    await expect(sut.rpc.send(messages.monitor.check, {}, { timeoutMs: 30_000 })).rejects.toThrow(
      /ended without results for all equipment/,
    );

    const text = await fetch(`${httpBase(sut)}/metrics`).then((r) => r.text());
    expect(text).toMatch(/^cm_monitor_sweeps_total\{outcome="incomplete",reason="check"\} 1$/m);
  });
});
