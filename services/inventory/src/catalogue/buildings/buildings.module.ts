import { Module } from '@nestjs/common';
import { BuildingLive } from './building-live';
import { BuildingRepository } from './building.repository';
import { BuildingsMessageController } from './buildings.message.controller';
import { BuildingsService } from './buildings.service';

@Module({
  controllers: [BuildingsMessageController],
  providers: [BuildingRepository, BuildingsService, BuildingLive],
})
export class BuildingsModule {}
