import { randomUUID } from 'node:crypto';
import { type Equipment, events, namespacedName, streams } from '@cm/contracts';
import { type JetStreamConnection } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { STATUS_CONSUMER } from '../../src/status/checks/status-events.consumer';

export type SweptCheck = [Equipment, 'active' | 'inactive' | 'partial'];

/**
 * The monitor's sweep of `checks`, published on the STATUS stream: one batch message, or one per
 * group when given several (as the monitor's shares publish theirs), all of one sweep; resolves
 * once inventory has consumed and acknowledged every status message of `namespace`.
 */
export async function publishSweep(
  monitor: JetStreamConnection,
  namespace: string,
  ...batches: SweptCheck[][]
): Promise<void> {
  const sweepId = randomUUID().slice(0, 18);
  const checkedAt = new Date().toISOString();
  await Promise.all(
    batches.map((checks) =>
      monitor.publish(
        events.statusChecked,
        {
          sweepId,
          checks: checks.map(([e, status]) => ({
            equipmentId: e.id,
            status,
            checkedAt,
            rttMs: status === 'active' ? 0.2 : null,
            results: [{ address: e.ipAddress!, alive: status === 'active', rttMs: null }],
          })),
        },
        { msgId: randomUUID() },
      ),
    ),
  );
  await eventually(async () => {
    const info = await monitor.jsm.consumers.info(
      namespacedName(namespace, streams.status.name),
      STATUS_CONSUMER,
    );
    expect({ pending: info.num_pending, unacked: info.num_ack_pending }).toEqual({ pending: 0, unacked: 0 });
  });
}
