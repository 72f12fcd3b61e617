import { eventually } from '@cm/platform/testing';
import { DeliveryRelay } from '../../src/alerting/notifications/delivery.relay';
import { type Inventory, type InventoryUnderTest, startInventory } from '../support';
import { type FakeHttp } from './fake-http';
import { type serviceDeskKit } from './service-desk';

/** A fake service desk behind a channel, as the replicas' scenarios look at it. */
export interface DeskUnderTest {
  http: FakeHttp;
  channelId: string;
  /** "incident", "work item": in the desk's words, as the delivery log has them. */
  noun: string;
  /** The incidents (work items) carrying the alert's correlation key. */
  opened(alertId: string): unknown[];
  /** The requests that opened one. */
  creates(): unknown[];
  /** The work notes (comments) of the alert's incident, as text. */
  notes(alertId: string): string[];
}

/**
 * Exactly once across replicas, for either desk: a second inventory in the same namespace sends
 * the alert's messages while the first is opening its incident, or while the desk answers 500.
 */
export function withSecondReplica(
  inventory: InventoryUnderTest,
  env: Record<string, string>,
  kit: ReturnType<typeof serviceDeskKit>,
  deskOf: () => DeskUnderTest,
): void {
  const { row, sent, episode, queue, queueQuietly } = kit;
  describe('with a second replica', () => {
    let replica: Inventory;
    beforeAll(async () => {
      replica = await startInventory(inventory.namespace, env);
    });
    afterAll(() => replica?.close());

    it("opens one incident when the other replica sends the alert's next message while the first is opening it", async () => {
      const desk = deskOf();
      const e = await episode();
      let letGo!: () => void;
      // The lookup answers at once; the create waits until the test lets it go.
      desk.http.faults.push({ until: Promise.resolve() }, { until: new Promise((r) => (letGo = r)) });
      const opened = await queue(desk.channelId, e.alertId, 'alert.opened');
      await eventually(() => expect(desk.http.requests.map((r) => r.method)).toEqual(['GET', 'POST']));
      // This replica is busy with the create (its relay's round is under way): the other sends.
      await e.setDevices([e.display, e.projector]);
      const updated = await queueQuietly(desk.channelId, e.alertId, 'alert.updated');
      replica.app.get(DeliveryRelay).kick();
      await eventually(async () =>
        expect((await row(updated)).last_error).toBe(
          'Another attempt is updating this incident; trying again shortly',
        ),
      );
      letGo();
      await sent(opened);
      await sent(updated);
      expect(desk.opened(e.alertId)).toHaveLength(1);
      expect(desk.creates()).toHaveLength(1);
      expect(desk.notes(e.alertId)).toEqual([
        `Now offline: Projector (${e.projector.ipAddress}). ${e.place}: 2 of 2 devices offline.`,
      ]);
    });

    it('retries through an outage answered 500 on both replicas, and opens one incident once it ends', async () => {
      const desk = deskOf();
      const e = await episode();
      desk.http.outage = true;
      const ids = [
        await queueQuietly(desk.channelId, e.alertId, 'alert.opened'),
        await queueQuietly(desk.channelId, e.alertId, 'alert.updated'),
      ];
      inventory.sut.app.get(DeliveryRelay).kick();
      replica.app.get(DeliveryRelay).kick();
      await eventually(async () => {
        const rows = await Promise.all(ids.map(row));
        expect(rows.map((r) => r.attempts >= 2)).toEqual([true, true]);
        expect(rows.map((r) => r.last_error)).toContain(
          `127.0.0.1:${desk.http.port} answered HTTP 500 to look the ${desk.noun} up`,
        );
      });
      expect(desk.opened(e.alertId)).toEqual([]);
      desk.http.outage = false;
      for (const id of ids) await sent(id);
      expect(desk.opened(e.alertId)).toHaveLength(1);
      expect(desk.creates()).toHaveLength(1);
    });
  });
}
