import {
  allowedNetworksEnv,
  coreEnv,
  databaseEnv,
  envInt,
  httpPortEnv,
  jetStreamEnv,
  withDefaultAllowedNetworks,
} from '@cm/platform';
import { alertsEnv, checkAlertsEnv, withDefaultAlertTargets } from './alerting';
import { REPORT_WINDOW_HOURS } from '@cm/contracts';
import { readinessEnv } from './readiness/readiness-config';
import { schedulesEnv } from './schedules';
import { z } from 'zod';

const int = (fallback: number, min: number, max: number) => envInt(min, max, fallback);

export const configSchema = z
  .object({
    ...coreEnv,
    ...jetStreamEnv,
    ...databaseEnv,
    ...httpPortEnv(9102),
    /** How long a status event may stay unacknowledged before JetStream delivers it again. */
    INVENTORY_STATUS_ACK_WAIT_MS: int(30_000, 1000, 600_000),
    /** Deliveries of one status event before it is given up; with the back-off (to 60 s), 10 is about 3 minutes. A later sweep supersedes it anyway. */
    INVENTORY_STATUS_MAX_DELIVER: int(10, 1, 1000),
    /** How often leftover equipment change events are published (they normally leave at once). */
    INVENTORY_OUTBOX_INTERVAL_MS: int(5000, 100, 600_000),
    /**
     * Status spans that ended, and day counters, older than this are deleted (at least the report
     * window). History is kept as changes, not pings, so a year and more costs little.
     */
    INVENTORY_HISTORY_RETENTION_HOURS: int(24 * 400, REPORT_WINDOW_HOURS, 24 * 3660),
    /**
     * Hour counters (the equipment timeline's hourly aggregates and 24-hour loss) older than this
     * are deleted. 24 rows per device per day, about 3.4 KB with their index (30 days would be
     * 5 GB at 50,000 devices); older days are answered from the day counters.
     */
    INVENTORY_STATUS_HOURS_RETENTION_DAYS: int(7, 2, 400),
    INVENTORY_HISTORY_PRUNE_INTERVAL_MS: int(3_600_000, 1000, 24 * 3_600_000),
    /** Equipment addresses are refused outside these networks, which the monitor alone may ping. */
    ...allowedNetworksEnv,
    /**
     * Addresses one range may cover. A range is one piece of equipment, a room's group of devices
     * (tens at most), not a subnet to sweep.
     */
    INVENTORY_MAX_ADDRESSES_PER_RANGE: int(64, 1, 254),
    /**
     * Addresses the campus may have monitored in all, ranges counted address by address: what the
     * monitor was measured to sweep well within its 30-second interval (docs/benchmarks.md).
     */
    INVENTORY_MAX_MONITORED_ADDRESSES: int(50_000, 1, 1_000_000),
    /**
     * The uptime CSV, one COPY of its query (docs/architecture.md, "The uptime CSV"): bytes per chunk
     * pulled by the gateway (well under NATS's 1 MB), how long a report left unpulled keeps its
     * connection, and reports at once per replica (each holds a database connection while it is
     * downloaded).
     */
    INVENTORY_REPORT_CHUNK_BYTES: int(128 * 1024, 1024, 512 * 1024),
    INVENTORY_REPORT_IDLE_MS: int(30_000, 1000, 600_000),
    INVENTORY_REPORT_STREAMS_MAX: int(4, 1, 100),
    ...alertsEnv,
    ...schedulesEnv,
    ...readinessEnv,
  })
  .superRefine(checkAlertsEnv)
  .transform(withDefaultAllowedNetworks)
  .transform(withDefaultAlertTargets);
export type Config = z.infer<typeof configSchema>;
