import { Module } from '@nestjs/common';
import { BuildingRepository } from './building.repository';
import { BuildingsMessageController } from './buildings.message.controller';
import { BuildingsService } from './buildings.service';

@Module({
  controllers: [BuildingsMessageController],
  providers: [BuildingRepository, BuildingsService],
})
export class BuildingsModule {}
