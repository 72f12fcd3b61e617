import { Global, Module } from '@nestjs/common';
import { EquipmentEventRepository } from './equipment-event.repository';
import { EquipmentEventsRelay } from './equipment-events.relay';

/** Equipment change events: written by a trigger in the changing transaction, published after. */
@Global()
@Module({ providers: [EquipmentEventRepository, EquipmentEventsRelay], exports: [EquipmentEventsRelay] })
export class OutboxModule {}
