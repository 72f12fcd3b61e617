/**
 * NATS message patterns (request/reply), event subjects and JetStream names.
 * Every name here is relative: on the wire it carries the stack's namespace
 * (CM_NAMESPACE), so two stacks can share one NATS server without crossing.
 */
export const serviceNames = ['auth', 'inventory', 'media', 'monitor'] as const;
export type ServiceName = (typeof serviceNames)[number];

export const patterns = {
  auth: {
    health: 'auth.health',
    login: 'auth.login',
    getUser: 'auth.user.get',
    listUsers: 'auth.user.list',
    createUser: 'auth.user.create',
    updateUser: 'auth.user.update',
    deleteUser: 'auth.user.delete',
  },
  inventory: {
    health: 'inventory.health',
    listBuildings: 'inventory.building.list',
    getBuilding: 'inventory.building.get',
    createBuilding: 'inventory.building.create',
    updateBuilding: 'inventory.building.update',
    deleteBuilding: 'inventory.building.delete',
    listRooms: 'inventory.room.list',
    getRoom: 'inventory.room.get',
    createRoom: 'inventory.room.create',
    updateRoom: 'inventory.room.update',
    deleteRoom: 'inventory.room.delete',
    listEquipment: 'inventory.equipment.list',
    createEquipment: 'inventory.equipment.create',
    updateEquipment: 'inventory.equipment.update',
    deleteEquipment: 'inventory.equipment.delete',
    listTargets: 'inventory.equipment.targets',
    report: 'inventory.report',
  },
  media: {
    health: 'media.health',
    createUpload: 'media.upload.create',
    completeUpload: 'media.upload.complete',
    abortUpload: 'media.upload.abort',
    createUploadUrl: 'media.upload-url.create',
    registerRoomImage: 'media.room-image.register',
    getObject: 'media.object.get',
  },
  monitor: {
    health: 'monitor.health',
    status: 'monitor.status',
    start: 'monitor.start',
    stop: 'monitor.stop',
    check: 'monitor.check',
    /** Coordinator → one replica: ping your share of a sweep (suffixed with the member id). */
    assignSweep: 'monitor.member.sweep',
    /** Replica → coordinator: a share of a sweep is finished (or given up). */
    sweepDone: 'monitor.sweep.done',
  },
} as const;

/** Events that must not be lost travel on JetStream streams. */
export const events = {
  /** Check results of a sweep (a batch, or one check), published by the monitor, persisted by inventory. */
  statusChecked: 'monitor.status.checked',
  /** Equipment created, readdressed or deleted: the monitor's target list follows it. */
  equipmentChanged: 'inventory.equipment.changed',
} as const;

/**
 * Durable consumers other services wait on: the monitor's Check Now answers once inventory's
 * consumer has acknowledged (so committed) the sweep's results.
 */
export const durableConsumers = {
  inventoryStatus: 'inventory-status',
} as const;

export const streams = {
  status: { name: 'STATUS', subjects: [events.statusChecked] },
  equipment: { name: 'EQUIPMENT', subjects: [events.equipmentChanged] },
} as const;

export const kvBuckets = {
  /** Monitoring state (running, interval), the leader lease and the last sweep. */
  monitor: 'monitor',
  /** Live monitor replicas and their ping session ids; entries expire unless refreshed. */
  monitorMembers: 'monitor_members',
} as const;

const namespacePattern = /^[a-z][a-z0-9_]{0,30}$/;

export function isValidNamespace(ns: string): boolean {
  return namespacePattern.test(ns);
}

/** `cm` + `inventory.room.list` → `cm.inventory.room.list` */
export function namespacedSubject(ns: string, subject: string): string {
  return `${ns}.${subject}`;
}

/** JetStream stream and KV bucket names may not contain dots. */
export function namespacedName(ns: string, name: string): string {
  return `${ns}_${name}`;
}
