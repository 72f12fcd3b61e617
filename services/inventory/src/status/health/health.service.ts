import { type ProbeReading } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { type Transaction } from '../../shared/database/table.repository';
import { type HealthRecord, type HoursSample, judge, type Judged, usageRates } from './health-rules';
import { HealthRepository, type LockedDevice } from './health.repository';

/** The lamp forecast counts the hours used over this many days. */
export const FORECAST_DAYS = 30;

/** A device whose health state (or what its reasons say) changed in a batch, as it is now. */
export interface HealthChange {
  equipmentId: string;
  roomId: string;
  buildingId: string;
  record: HealthRecord;
  previousState: HealthRecord['state'] | null;
  /** Its probe was refused the credentials now, and was not at its reading before. */
  authFailedNow: boolean;
}

export interface HealthBatchResult {
  recorded: number;
  /** Readings of equipment deleted since the monitor listed it. */
  unknownEquipment: number;
  /** Readings not newer than the device's last (a message delivered again). */
  stale: number;
  changes: HealthChange[];
}

interface Span {
  equipmentId: string;
  startedAt: number;
  endedAt: number | null;
  state: string;
  reasons: string[];
}

/**
 * Turns probe readings into equipment health, a batch in one transaction: each reading judged
 * against the device's record (`health-rules.ts`), in time order; a reading no newer than the
 * record is a duplicate and changes nothing. Spans, firmware history and day samples are written
 * only when they change; the records in one statement.
 */
@Injectable()
export class HealthService {
  constructor(private readonly health: HealthRepository) {}

  record(readings: readonly ProbeReading[]): Promise<HealthBatchResult> {
    const ordered = [...readings].sort((a, b) => Date.parse(a.checkedAt) - Date.parse(b.checkedAt));
    const ids = [...new Set(ordered.map((r) => r.equipmentId))].sort();
    return this.health.transaction(async (tx) => {
      const devices = new Map((await this.health.lock(tx, ids)).map((d) => [d.id, d]));
      const result: HealthBatchResult = { recorded: 0, unknownEquipment: 0, stale: 0, changes: [] };
      const latest = new Map<string, Judged>();
      const spans: Span[] = [];
      const firmware: { equipmentId: string; from: string | null; to: string; at: number }[] = [];
      const authFailedNow = new Set<string>();
      for (const reading of ordered) {
        const device = devices.get(reading.equipmentId);
        if (!device) {
          result.unknownEquipment++;
          continue;
        }
        const previous = latest.get(device.id)?.record ?? device.previous;
        if (previous && Date.parse(reading.checkedAt) <= previous.checkedAt) {
          result.stale++;
          continue;
        }
        const judged = judge(reading, previous, device.settings);
        latest.set(device.id, judged);
        result.recorded++;
        const { record } = judged;
        if (judged.stateChanged) spans.push(spanOf(record));
        if (judged.firmwareChange)
          firmware.push({ equipmentId: device.id, ...judged.firmwareChange, at: record.checkedAt });
        if (record.authFailed && !previous?.authFailed) authFailedNow.add(device.id);
        if (!record.authFailed) authFailedNow.delete(device.id);
      }
      await this.forecast(tx, latest);
      await this.health.write(
        tx,
        [...latest.values()].map((j) => j.record),
      );
      await this.health.openSpans(tx, endedInBatch(spans));
      await this.health.recordFirmware(tx, firmware);
      await this.health.fillIdentity(tx, identityFills(devices, latest));
      result.changes = changesOf(devices, latest, spans, authFailedNow);
      return result;
    });
  }

  /**
   * Deletes what is older than the history's retention, and lamp samples older than the forecast
   * needs (twice its window, so a forecast never lacks its oldest day).
   */
  prune(before: Date, now: number): Promise<number> {
    const daysBefore = new Date(now - 2 * FORECAST_DAYS * 86_400_000).toISOString().slice(0, 10);
    return this.health.prune(before, daysBefore);
  }

  /** Each device's first reading of a day is sampled; its lamp and filter use per day is counted again. */
  private async forecast(tx: Transaction, latest: Map<string, Judged>): Promise<void> {
    const samples = [...latest.values()]
      .filter((j) => j.sampleDay)
      .map(({ record, sampleDay }) => ({
        equipmentId: record.equipmentId,
        day: sampleDay!,
        ...hoursOf(record),
      }));
    if (samples.length === 0) return;
    const since = samples.reduce((min, s) => (s.day < min ? s.day : min), samples[0].day);
    const sinceDay = new Date(Date.parse(since) - FORECAST_DAYS * 86_400_000).toISOString().slice(0, 10);
    const recent = await this.health.sample(tx, samples, sinceDay);
    for (const { equipmentId } of samples) {
      const { record } = latest.get(equipmentId)!;
      const rates = usageRates(recent.get(equipmentId) ?? [], hoursOf(record));
      record.lampRates = rates.lampRates;
      record.filterRate = rates.filterRate;
    }
  }
}

const hoursOf = (record: HealthRecord): HoursSample => ({
  sampledAt: record.checkedAt,
  lampHours: (record.lamps ?? []).map((l) => l.hours),
  filterHours: record.filterHours,
});

const spanOf = (record: HealthRecord): Span => ({
  equipmentId: record.equipmentId,
  startedAt: record.stateSince,
  endedAt: null,
  state: record.state,
  reasons: record.reasons,
});

/** A device's spans of one batch: each but its last ends where the next begins. */
function endedInBatch(spans: Span[]): Span[] {
  const next = new Map<string, number>();
  for (let i = spans.length - 1; i >= 0; i--) {
    const span = spans[i];
    span.endedAt = next.get(span.equipmentId) ?? null;
    next.set(span.equipmentId, span.startedAt);
  }
  return spans;
}

/** Model and serial number read by a probe, for equipment whose own fields are empty. */
function identityFills(devices: Map<string, LockedDevice>, latest: Map<string, Judged>) {
  return [...latest.values()].flatMap(({ record }) => {
    const device = devices.get(record.equipmentId)!;
    const model = !device.model && record.model ? record.model : null;
    const serial = !device.serialNumber && record.serial ? record.serial : null;
    return model || serial ? [{ id: device.id, model, serial }] : [];
  });
}

function changesOf(
  devices: Map<string, LockedDevice>,
  latest: Map<string, Judged>,
  spans: Span[],
  authFailedNow: Set<string>,
): HealthChange[] {
  const changed = new Set(spans.map((s) => s.equipmentId));
  return [...changed].map((id) => {
    const device = devices.get(id)!;
    return {
      equipmentId: id,
      roomId: device.roomId,
      buildingId: device.buildingId,
      record: latest.get(id)!.record,
      previousState: device.previous?.state ?? null,
      authFailedNow: authFailedNow.has(id),
    };
  });
}
