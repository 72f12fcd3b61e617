import { type DurableMonitoringState, ErrorCode, messages, type MonitoringStatus } from '@cm/contracts';
import { AppError, CONFIG, RpcClient } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { decode, encode, isRevisionConflict, MonitorStore } from '../cluster/monitor-store';
import { type Config } from '../config';

const STATE_KEY = 'state';
const LAST_SWEEP_KEY = 'lastSweep';

/** The stored state always has an interval (the contract allows none for other producers). */
export type StoredStatus = MonitoringStatus & { interval: number };

interface LastSweep {
  sweepId: string;
  /** Epoch milliseconds. */
  firedAt: number;
}

/**
 * Running or stopped, and the interval, in NATS KV: every replica reads the same state. Start
 * stores this replica's MONITOR_INTERVAL_MS; stop keeps the interval. Monitoring is stopped until
 * someone starts it.
 *
 * KV is lost with NATS's store (a fresh or single-node NATS, a wiped volume), so each change is
 * first saved by inventory in PostgreSQL, and the leader restores the KV entry from there
 * (`restore`): a lost entry would otherwise read as stopped, and stay so unnoticed.
 */
@Injectable()
export class MonitoringState {
  private readonly logger = new Logger(MonitoringState.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly store: MonitorStore,
    private readonly rpc: RpcClient,
  ) {}

  async get(): Promise<StoredStatus> {
    return (await this.stored()) ?? { isRunning: false, interval: this.config.MONITOR_INTERVAL_MS };
  }

  /** The KV entry; null when it is missing (never written, or lost with NATS's store). */
  async stored(): Promise<StoredStatus | null> {
    const stored = decode<MonitoringStatus>(await this.store.state.get(STATE_KEY));
    if (!stored) return null;
    return { isRunning: stored.isRunning, interval: stored.interval ?? this.config.MONITOR_INTERVAL_MS };
  }

  /** Saved by inventory first: a change it cannot keep is refused rather than kept only in KV. */
  async setRunning(isRunning: boolean): Promise<StoredStatus> {
    const current = await this.get();
    const next: StoredStatus = {
      isRunning,
      interval: isRunning ? this.config.MONITOR_INTERVAL_MS : current.interval,
    };
    await this.rpc.send(messages.inventory.saveMonitoringState, next).catch((error: unknown) => {
      const timedOut = error instanceof AppError && error.code === ErrorCode.SERVICE_TIMEOUT;
      throw new AppError(
        timedOut ? ErrorCode.SERVICE_TIMEOUT : ErrorCode.SERVICE_UNAVAILABLE,
        `Monitoring was not ${isRunning ? 'started' : 'stopped'}: the inventory service keeps this ` +
          `setting and could not save it. ${error instanceof AppError ? error.message : 'Try again shortly.'}`,
      );
    });
    await this.store.state.put(STATE_KEY, encode(next));
    return next;
  }

  /**
   * Makes the KV entry agree with inventory's durable copy, which every change reaches first: a
   * missing or differing entry takes inventory's; an entry inventory lacks (kept before inventory
   * kept one) is saved there. Writes are revision-checked, so a start or stop meanwhile wins.
   */
  async restore(): Promise<void> {
    const entry = await this.store.state.get(STATE_KEY);
    const stored = decode<MonitoringStatus>(entry);
    const durable = await this.rpc.send(messages.inventory.getMonitoringState);
    if (!durable) {
      if (stored?.interval)
        await this.rpc.send(messages.inventory.saveMonitoringState, {
          isRunning: stored.isRunning,
          interval: stored.interval,
        });
      return;
    }
    if (stored?.isRunning === durable.isRunning && stored.interval === durable.interval) return;
    const value = encode({ isRunning: durable.isRunning, interval: durable.interval } satisfies StoredStatus);
    try {
      if (stored && entry) await this.store.state.update(STATE_KEY, value, entry.revision);
      else await this.store.state.create(STATE_KEY, value);
    } catch (error) {
      if (isRevisionConflict(error)) return;
      throw error;
    }
    this.logger.warn(
      `Restored the monitoring state from inventory (${described(durable)}): ` +
        (stored ? `NATS KV said ${stored.isRunning ? 'running' : 'stopped'}` : 'NATS KV had lost it'),
    );
  }

  async lastSweep(): Promise<LastSweep | null> {
    return decode<LastSweep>(await this.store.state.get(LAST_SWEEP_KEY));
  }

  async recordSweep(sweepId: string, firedAt: number): Promise<void> {
    await this.store.state.put(LAST_SWEEP_KEY, encode({ sweepId, firedAt } satisfies LastSweep));
  }
}

function described({ isRunning, interval, changedAt }: DurableMonitoringState): string {
  return `${isRunning ? 'running' : 'stopped'}, interval ${interval} ms, since ${changedAt}`;
}
