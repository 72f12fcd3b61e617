import { type MonitoringStatus } from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { decode, encode, MonitorStore } from '../cluster/monitor-store';
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
 * Running or stopped, and the interval, in NATS KV: every replica reads the same state and it
 * outlives restarts. Start stores this replica's MONITOR_INTERVAL_MS; stop keeps the interval.
 * Monitoring is stopped until someone starts it.
 */
@Injectable()
export class MonitoringState {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly store: MonitorStore,
  ) {}

  async get(): Promise<StoredStatus> {
    const stored = decode<MonitoringStatus>(await this.store.state.get(STATE_KEY));
    return {
      isRunning: stored?.isRunning ?? false,
      interval: stored?.interval ?? this.config.MONITOR_INTERVAL_MS,
    };
  }

  async setRunning(isRunning: boolean): Promise<StoredStatus> {
    const current = await this.get();
    const next: StoredStatus = {
      isRunning,
      interval: isRunning ? this.config.MONITOR_INTERVAL_MS : current.interval,
    };
    await this.store.state.put(STATE_KEY, encode(next));
    return next;
  }

  async lastSweep(): Promise<LastSweep | null> {
    return decode<LastSweep>(await this.store.state.get(LAST_SWEEP_KEY));
  }

  async recordSweep(sweepId: string, firedAt: number): Promise<void> {
    await this.store.state.put(LAST_SWEEP_KEY, encode({ sweepId, firedAt } satisfies LastSweep));
  }
}
