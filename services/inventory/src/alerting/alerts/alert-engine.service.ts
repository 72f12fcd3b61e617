import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../config';
import { type Transaction } from '../../shared/database/table.repository';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import {
  type AlertOutcome,
  type CheckAlerts,
  type CheckedDevice,
  MaintenanceWindowsService,
  noAlerts,
} from '../../status';
import { DeliveryRelay } from '../notifications/delivery.relay';
import {
  alertChanges,
  type AlertMessage,
  alertMessage,
  type AlertRoom,
  type AlertRules,
  alertView,
  type DeviceAlertState,
  type DeviceStep,
  flappingText,
  isCandidate,
  recoveryMessage,
  sameState,
  signature,
  stepDevice,
} from './alert-rules';
import { AlertRepository, type AlertStateRow, type StoredAlert } from './alert.repository';
import { AlertQueue } from './alert-queue.service';

/** An equipment's step, with the state it started from. */
type Step = DeviceStep & { id: string; roomId: string; prev: DeviceAlertState };

/**
 * Decides alerts inside the transaction that records a batch of checks, so a decision and the
 * deliveries it queues commit with the checks that caused them, and a redelivered batch (whose
 * checks are all duplicates) decides nothing again. The batch holds its equipment's state rows;
 * each room is locked (its row, in id order) while its alert is changed, so batches of two
 * replicas that touch one room take turns. The decisions are `alert-rules.ts`; the SQL is
 * `AlertRepository`'s.
 */
@Injectable()
export class AlertEngine implements CheckAlerts {
  readonly stateColumns = AlertRepository.stateColumns;
  private readonly rules: AlertRules;

  constructor(
    private readonly alerts: AlertRepository,
    private readonly windows: MaintenanceWindowsService,
    private readonly queue: AlertQueue,
    private readonly relay: DeliveryRelay,
    private readonly live: LiveEventsPublisher,
    @Inject(CONFIG) config: Config,
  ) {
    this.rules = {
      afterFailedChecks: config.ALERT_AFTER_FAILED_CHECKS,
      flapThreshold: config.ALERT_FLAP_THRESHOLD,
    };
  }

  async afterChecks(tx: Transaction, devices: readonly CheckedDevice[]): Promise<AlertOutcome> {
    const now = Date.now();
    const steps: Step[] = devices
      .filter((d) => d.observations.length > 0)
      .map((d) => {
        // The row holds the columns `stateColumns` named.
        const prev = AlertRepository.stateOf(d.row as AlertStateRow);
        return { id: d.id, roomId: d.roomId, prev, ...stepDevice(prev, d.observations, this.rules, now) };
      });
    const changed = steps.filter((s) => !sameState(s.prev, s.state));
    if (changed.length === 0) return noAlerts();
    await this.alerts.writeStates(tx, changed);

    const candidates = steps.filter(isCandidate).map((s) => s.id);
    const covered = new Set(
      candidates.length ? (await this.windows.coveringEquipment(candidates, new Date(now))).keys() : [],
    );
    const upstreamRoomOf = await this.alerts.failingUpstreams(
      tx,
      candidates.filter((id) => !covered.has(id)),
    );
    const { joiners, rooms } = alertChanges(steps, covered, upstreamRoomOf);
    if (rooms.size === 0) return noAlerts();
    return this.settle(
      tx,
      [...rooms],
      joiners,
      steps.filter((s) => s.flapped),
    );
  }

  /**
   * Brings the open alerts of rooms up to date in a transaction of its own: for equipment that
   * was deleted, moved out, lost its address or was set to maintenance by a person.
   */
  settleRooms(roomIds: readonly string[]): Promise<AlertOutcome> {
    return this.alerts.transaction((tx) => this.settle(tx, roomIds, new Map(), []));
  }

  @OnInventoryEvent('alerts.changed')
  announce(outcome: AlertOutcome): void {
    if (outcome.queued > 0) this.relay.kick();
    for (const { roomId, buildingId } of outcome.rooms) {
      this.live.inventoryChanged({ kind: 'alert', action: 'updated', id: roomId, roomId, buildingId });
    }
  }

  private async settle(
    tx: Transaction,
    roomIds: readonly string[],
    joiners: ReadonlyMap<string, string[]>,
    flapped: readonly Step[],
  ): Promise<AlertOutcome> {
    const outcome = noAlerts();
    const rooms = await this.alerts.lockRooms(tx, roomIds);
    const open = await this.alerts.openAlerts(
      tx,
      rooms.map((r) => r.id),
    );
    const openByRoom = new Map(open.map((a) => [a.roomId, a]));
    for (const room of rooms) {
      const joining = joiners.get(room.id) ?? [];
      if (await this.settleRoom(tx, room, openByRoom.get(room.id) ?? null, joining, outcome)) {
        outcome.rooms.push({ roomId: room.id, buildingId: room.buildingId });
      }
      for (const s of flapped.filter((f) => f.roomId === room.id)) {
        await this.reportFlapping(tx, room, s, outcome);
      }
    }
    return outcome;
  }

  /** Whether the room's open alert opened, changed or closed. */
  private async settleRoom(
    tx: Transaction,
    room: AlertRoom,
    stored: StoredAlert | null,
    joining: string[],
    outcome: AlertOutcome,
  ): Promise<boolean> {
    if (!stored && joining.length === 0) return false;
    const alert = stored ?? (await this.alerts.open(tx, room.id));
    if (joining.length) await this.alerts.join(tx, alert.id, joining);
    await this.alerts.releaseLeavers(tx, alert.id, room.id);
    const members = await this.alerts.members(tx, alert.id);
    if (stored && signature(members) === signature(stored.devices)) return false;
    if (!stored && members.length === 0) {
      await this.alerts.discard(tx, alert.id);
      return false;
    }

    const view = alertView(room, alert, await this.alerts.monitored(tx, room.id), members);
    if (members.length === 0) {
      const closed = await this.alerts.close(tx, alert.id);
      await this.message(tx, room, alert.id, outcome, recoveryMessage(view, closed, stored?.devices ?? []));
    } else {
      await this.alerts.setDevices(tx, alert.id, members);
      await this.message(tx, room, alert.id, outcome, alertMessage(view, !stored));
    }
    return true;
  }

  private async reportFlapping(tx: Transaction, room: AlertRoom, step: Step, outcome: AlertOutcome) {
    const device = await this.alerts.device(tx, step.id);
    if (!device) return;
    const open = await this.alerts.openAlertOf(tx, room.id);
    const view = alertView(room, open, await this.alerts.monitored(tx, room.id), [device]);
    await this.message(tx, room, null, outcome, {
      kind: 'alert.flapping',
      text: flappingText(view, device, step.state.changes.length),
      alert: view,
    });
  }

  /**
   * Queues a message (`AlertQueue`). A message of the alert still waiting for its group window is
   * rewritten instead, keeping its kind; an opening that never went out and is now closed is
   * dropped, not followed by a recovery.
   */
  private async message(
    tx: Transaction,
    room: AlertRoom,
    alertId: string | null,
    outcome: AlertOutcome,
    content: AlertMessage,
  ): Promise<void> {
    const done = new Set<string>();
    if (alertId) {
      if (content.kind === 'alert.recovered') {
        for (const id of await this.alerts.dropWaitingOpenings(tx, alertId)) done.add(id);
      }
      for (const id of await this.alerts.rewriteWaiting(tx, alertId, content)) done.add(id);
    }
    outcome.queued += await this.queue.queue(tx, room, content, { alertId, skip: done });
  }
}
