import { Module } from '@nestjs/common';
import { BuildingsController } from './buildings.controller';
import { EquipmentController } from './equipment.controller';
import { MaintenanceWindowsController } from './maintenance-windows.controller';
import { NotificationsController } from './notifications.controller';
import { ProblemsController } from './problems.controller';
import { RegisteredPictures } from './registered-pictures.service';
import { ReportsController } from './reports.controller';
import { RoomsController } from './rooms.controller';
import { SearchController } from './search.controller';
import { UptimeReportService } from './uptime-report.service';

/**
 * Buildings, rooms, equipment, what is down now, search, the uptime report, maintenance windows and
 * notification channels with their delivery log, each a call to the inventory service.
 */
@Module({
  controllers: [
    BuildingsController,
    RoomsController,
    EquipmentController,
    ReportsController,
    ProblemsController,
    SearchController,
    MaintenanceWindowsController,
    NotificationsController,
  ],
  providers: [RegisteredPictures, UptimeReportService],
})
export class InventoryModule {}
