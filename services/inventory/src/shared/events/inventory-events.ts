import { type Equipment, type EquipmentStatus, type LiveEquipmentStatus } from '@cm/contracts';

/**
 * What alert decisions committed: deliveries queued (the relay is kicked after the commit) and
 * the rooms whose open alert opened, changed or closed (live events after the commit).
 */
export interface AlertsChanged {
  queued: number;
  rooms: { roomId: string; buildingId: string }[];
}

/** What a maintenance window covers: a building, a room or equipment (the other two null). */
export interface MaintenanceTarget {
  buildingId: string | null;
  roomId: string | null;
  equipmentId: string | null;
}

/**
 * Every in-process event of inventory, by name, with its payload: emitted inside the transaction
 * that made it true, delivered to `inTransaction` subscribers at once (with that transaction) and
 * to `afterCommit` subscribers once it commits (never on a rollback). Every reaction to an event
 * is a method marked `@OnInventoryEvent('<name>')`: search for the name to find them all.
 *
 * The payloads use only the contracts and what is declared here, so that any context may emit an
 * event and any context above it subscribe, without either importing the other.
 */
export interface InventoryEvents {
  /** A person created, updated or deleted a building (the catalogue); a delete takes its rooms and equipment. */
  'building.created': { id: string };
  'building.updated': { id: string };
  'building.deleted': { id: string };
  /** A person created, updated or deleted a room (the catalogue); a delete takes its equipment. */
  'room.created': { id: string; buildingId: string };
  'room.updated': { id: string; buildingId: string };
  'room.deleted': { id: string; buildingId: string };
  /** A person created equipment (the catalogue). */
  'equipment.created': { equipment: Equipment };
  /**
   * A person updated equipment (the catalogue): as it is now, whether its status, address or
   * probe changed, and the room it was in before (the same room unless it moved).
   */
  'equipment.updated': {
    equipment: Equipment;
    statusChanged: boolean;
    addressChanged: boolean;
    /** Its probe settings or secrets were written: the outbox has a `probeChanged` event for the monitor. */
    probeChanged?: boolean;
    previousRoomId: string;
  };
  /** A person deleted equipment (the catalogue): its id, and the room and building it was in. */
  'equipment.deleted': { id: string; roomId: string; buildingId: string };
  /**
   * A person set equipment's status (the catalogue), emitted before the row is written: the
   * status history records it in the update's transaction.
   */
  'equipment.status-set': { equipmentId: string; status: EquipmentStatus };
  /**
   * A CSV import applied its plan (the catalogue): the buildings it created, the others whose own
   * row, rooms or equipment it created or changed, and whether it wrote equipment (the outbox then
   * has events for the monitor).
   */
  'import.applied': { createdBuildingIds: string[]; changedBuildingIds: string[]; equipmentWritten: boolean };
  /**
   * A person planned, changed or deleted a maintenance window (status): its id and what it covers
   * (one of the three ids set), and for a change what it covered before (the same unless it moved).
   */
  'maintenance-window.created': { id: string; target: MaintenanceTarget };
  'maintenance-window.updated': { id: string; target: MaintenanceTarget; previousTarget: MaintenanceTarget };
  'maintenance-window.deleted': { id: string; target: MaintenanceTarget };
  /** A batch of the monitor's checks changed these equipment's statuses (status), in order. */
  'status.changed': { changes: LiveEquipmentStatus[] };
  /** Alert decisions committed (alerting, or status for the decisions of its batch). */
  'alerts.changed': AlertsChanged;
}

export type InventoryEventName = keyof InventoryEvents;
