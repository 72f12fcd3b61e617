import { randomUUID } from 'node:crypto';
import { events, messages, type ProbeReading } from '@cm/contracts';
import { type JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { type InventoryUnderTest, monitorOf } from './support';

/** A reading as a test gives it: the device and the time; a PJLink answer with no findings unless said. */
export type TestReading = Partial<ProbeReading> & Pick<ProbeReading, 'equipmentId' | 'checkedAt'>;

/**
 * The monitor's side of device health for a test file: publishes batches of readings on the
 * HEALTH stream, and waits until inventory has recorded a reading.
 */
export function probeReadings(inventory: InventoryUnderTest) {
  let monitor: JetStreamConnection;
  beforeAll(async () => {
    monitor = await monitorOf(inventory.namespace);
  });
  afterAll(() => monitor?.close());

  const publish = (readings: TestReading[], msgId = randomUUID()) =>
    monitor.publish(
      events.healthProbed,
      {
        batchId: msgId.slice(0, 32),
        readings: readings.map((r) => ({ probeType: 'pjlink', outcome: 'answered', findings: [], ...r })),
      },
      { msgId },
    );
  /** The equipment once its reading at `checkedAt` is recorded. */
  const recorded = (id: string, checkedAt: string) =>
    eventually(async () => {
      const current = await inventory.send(messages.inventory.getEquipment, { id });
      expect(current.health?.checkedAt).toBe(checkedAt);
      return current;
    });
  return { publish, recorded };
}
