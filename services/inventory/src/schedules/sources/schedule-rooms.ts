import { Injectable } from '@nestjs/common';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { OccurrenceRepository } from './occurrence.repository';

/**
 * A room added or renamed may be the one a building schedule's LOCATION names: its classes are
 * placed again once the edit commits, rather than at the schedule's next read.
 */
@Injectable()
export class ScheduleRooms {
  constructor(private readonly occurrences: OccurrenceRepository) {}

  @OnInventoryEvent('room.created')
  created({ buildingId }: InventoryEvents['room.created']): Promise<void> {
    return this.occurrences.placeBuilding(buildingId);
  }

  @OnInventoryEvent('room.updated')
  updated({ buildingId }: InventoryEvents['room.updated']): Promise<void> {
    return this.occurrences.placeBuilding(buildingId);
  }
}
