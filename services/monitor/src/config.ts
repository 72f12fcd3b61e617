import { DEFAULT_MONITOR_INTERVAL_MS, MONITOR_CHECK_MAX_WAIT_MS } from '@cm/contracts';
import {
  allowedNetworksEnv,
  coreEnv,
  envInt,
  httpPortEnv,
  jetStreamEnv,
  withDefaultAllowedNetworks,
} from '@cm/platform';
import { z } from 'zod';

const int = (fallback: number, min: number, max: number) => envInt(min, max, fallback);

export const configSchema = z
  .object({
    ...coreEnv,
    ...jetStreamEnv,
    ...httpPortEnv(9104),
    /** The sweep interval stored when monitoring is started (the spec's 30 seconds). */
    MONITOR_INTERVAL_MS: int(DEFAULT_MONITOR_INTERVAL_MS, 1000, 24 * 3_600_000),
    /** How long one echo request waits for its reply before it is sent again or given up (fping -t). */
    MONITOR_PING_TIMEOUT_MS: int(1000, 10, 60_000),
    /** Echo requests sent again to an address that did not answer (fping -r). */
    MONITOR_PING_RETRIES: int(1, 0, 10),
    /** Least time between two packets a replica sends, in milliseconds, fractions allowed (fping -i). */
    MONITOR_PACKET_GAP_MS: z.coerce.number().min(0).max(1000).default(0.2),
    /** Echo requests awaiting their reply at once; net-ping's sequence numbers allow fewer than 65535. */
    MONITOR_MAX_OUTSTANDING: int(10_000, 1, 60_000),
    /** ICMP identifier of this process's ping session; unset: a random free one. */
    MONITOR_SESSION_ID: z.coerce.number().int().min(1).max(65534).optional(),
    /** A replica that has not renewed its membership (or the leader its lease) for this long is gone. */
    MONITOR_MEMBER_TTL_MS: int(10_000, 1000, 300_000),
    /** How long Check Now waits for its sweep before answering that it goes on. */
    MONITOR_CHECK_WAIT_MS: int(20_000, 1000, MONITOR_CHECK_MAX_WAIT_MS),
    /** A sweep not finished within this long is given up (the next one starts afresh). */
    MONITOR_SWEEP_TIMEOUT_MS: int(120_000, 1000, 3_600_000),
    /** Full reload of the target list from inventory, besides following its change events. */
    MONITOR_TARGETS_RESYNC_MS: int(600_000, 1000, 24 * 3_600_000),
    /** Where the monitor may ping or probe: an address outside (or not a device's) is skipped and logged. */
    ...allowedNetworksEnv,
    /** Deep probes (PJLink, SNMP, …) running at once on this replica, over all devices. */
    MONITOR_PROBE_CONCURRENCY: int(64, 1, 4096),
    /** One deep probe, connection to last answer; past it the device reads as unreachable. */
    MONITOR_PROBE_TIMEOUT_MS: int(8000, 100, 120_000),
    /** Full reload of the probe targets (settings and secrets) from inventory, besides change events. */
    MONITOR_PROBE_TARGETS_RESYNC_MS: int(60_000, 1000, 24 * 3_600_000),
  })
  .refine((c) => c.MONITOR_SWEEP_TIMEOUT_MS > c.MONITOR_PING_TIMEOUT_MS * (c.MONITOR_PING_RETRIES + 1), {
    message: 'MONITOR_SWEEP_TIMEOUT_MS must exceed MONITOR_PING_TIMEOUT_MS × (MONITOR_PING_RETRIES + 1)',
    path: ['MONITOR_SWEEP_TIMEOUT_MS'],
  })
  .transform(withDefaultAllowedNetworks);
export type Config = z.infer<typeof configSchema>;
