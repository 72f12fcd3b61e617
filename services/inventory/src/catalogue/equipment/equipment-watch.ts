import { type EquipmentStatus } from '@cm/contracts';
import { type Transaction } from '../../shared/database/table.repository';

/** Work to do once the transaction it was decided in has committed. */
export type AfterCommit = () => void;

/**
 * What an equipment edit asks of the contexts above the catalogue. Declared here, implemented by
 * alerting (which may read status and the catalogue, as the catalogue may read neither) and
 * provided under `EQUIPMENT_WATCH`.
 */
export interface EquipmentWatch {
  /**
   * In the update's transaction, which holds the equipment row: a person set its status, which
   * takes it out of its alert. Answers what to announce once the update commits.
   */
  statusSet(tx: Transaction, equipmentId: string, status: EquipmentStatus): Promise<AfterCommit>;
  /**
   * After the commit: equipment deleted, moved, without an address or taken over by a person
   * leaves its room's alert. Never fails the edit: the next check of the room settles it anyway.
   */
  roomsChanged(roomIds: readonly string[]): Promise<void>;
}

export const EQUIPMENT_WATCH = Symbol('EquipmentWatch');
