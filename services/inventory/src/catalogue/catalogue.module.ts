import { Module } from '@nestjs/common';
import { BuildingsModule } from './buildings/buildings.module';
import { EquipmentModule } from './equipment/equipment.module';
import { ImportModule } from './import/import.module';
import { OutboxModule } from './outbox/outbox.module';
import { RoomsModule } from './rooms/rooms.module';
import { SearchModule } from './search/search.module';

/** What the campus has: buildings, rooms, equipment, their search and CSV import, and the equipment outbox. */
@Module({
  imports: [OutboxModule, BuildingsModule, RoomsModule, EquipmentModule, SearchModule, ImportModule],
})
export class CatalogueModule {}
