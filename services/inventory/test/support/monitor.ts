import { serviceFromSource, startTestService } from '@cm/platform/testing';

/** Loopback and the device lab's block (NetnsLab): the networks inventory and monitor may watch in a test. */
export const TEST_NETWORKS = '127.0.0.0/8,198.18.0.0/15';

/**
 * The real monitor beside inventory in its namespace, from its source: its room check pings and
 * deep-probes for real. It pings nothing outside TEST_NETWORKS.
 */
export const startMonitor = (namespace: string) =>
  startTestService({
    ...serviceFromSource('monitor'),
    namespace,
    env: {
      MONITOR_PING_TIMEOUT_MS: '300',
      MONITOR_PING_RETRIES: '1',
      MONITOR_ALLOWED_NETWORKS: TEST_NETWORKS,
    },
  });
