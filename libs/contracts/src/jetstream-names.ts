/*
 * JetStream's side of the messaging: event subjects, their streams, durable consumers and KV
 * buckets. Relative names, like the messages': the namespace is added on the wire (namespace.ts).
 */

/** Events that must not be lost travel on JetStream streams. */
export const events = {
  /** Check results of a sweep (a batch, or one check), published by the monitor, persisted by inventory. */
  statusChecked: 'monitor.status.checked',
  /** Equipment created, readdressed or deleted: the monitor's target list follows it. */
  equipmentChanged: 'inventory.equipment.changed',
  /** Probe readings (a batch), published by the monitor, turned into equipment health by inventory. */
  healthProbed: 'monitor.health.probed',
  /** Live events for open screens (`GET /api/events`): equipment statuses that changed, by inventory. */
  liveEquipmentStatus: 'live.equipment.status',
  /** Live: a building, room or equipment was created, updated or deleted, by inventory. */
  liveInventoryChanged: 'live.inventory.changed',
  /** Live: monitoring started, stopped or its interval changed, by the monitor. */
  liveMonitoringState: 'live.monitoring.state',
  /** Live: results of a room check that came after its answer, by the monitor. */
  liveRoomChecked: 'live.room.checked',
  /**
   * An account created, or its role or active flag changed, by auth: the gateway's audit log
   * records it (not `auth.user.changed`, the core notice that refreshes the gateways' copies).
   */
  accountChanged: 'auth.account.changed',
} as const;

/** The SSE event name of a live subject: `live.equipment.status` → `equipment.status`. */
export const liveEventType = (subject: string): string => subject.replace(/^live\./, '');

/**
 * Durable consumers other services wait on: the monitor's Check Now answers once inventory's
 * consumer has acknowledged (so committed) the sweep's results.
 */
export const durableConsumers = {
  inventoryStatus: 'inventory-status',
  inventoryHealth: 'inventory-health',
  /** The gateway's audit log, fed with auth's account changes (replicas share it). */
  gatewayAccounts: 'gateway-accounts',
} as const;

/**
 * JetStream streams. `maxAgeMs` and `maxBytes`, when given, replace the platform's defaults (7 days,
 * 1 GiB): the live stream only has to bridge a short disconnect of an open screen.
 */
export const streams = {
  status: { name: 'STATUS', subjects: [events.statusChecked] },
  equipment: { name: 'EQUIPMENT', subjects: [events.equipmentChanged] },
  health: { name: 'HEALTH', subjects: [events.healthProbed] },
  // A change of an account is a few hundred bytes and rare: 64 MiB holds years of them, and JetStream
  // reserves a stream's max_bytes up front.
  accounts: { name: 'ACCOUNTS', subjects: [events.accountChanged], maxBytes: 64 * 1024 * 1024 },
  live: {
    name: 'LIVE',
    subjects: [
      events.liveEquipmentStatus,
      events.liveInventoryChanged,
      events.liveMonitoringState,
      events.liveRoomChecked,
    ],
    maxAgeMs: 10 * 60_000,
    maxBytes: 64 * 1024 * 1024,
  },
} as const;

export const kvBuckets = {
  /** Monitoring state (running, interval), the leader lease and the last sweep. */
  monitor: 'monitor',
  /** Live monitor replicas and their ping session ids; entries expire unless refreshed. */
  monitorMembers: 'monitor_members',
} as const;
