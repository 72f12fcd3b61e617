import { Module } from '@nestjs/common';
import { BuildingsController } from './buildings.controller';
import { DeviceHealthController } from './device-health.controller';
import { EquipmentController } from './equipment.controller';
import { IMPORT_IDLE_TIMERS, idleTimersProvider } from '../http/idle-timers';
import { InventoryCsvController } from './inventory-csv.controller';
import { InventoryExportService } from './inventory-export.service';
import { InventoryImportService } from './inventory-import.service';
import { MaintenanceWindowsController } from './maintenance-windows.controller';
import { NotificationsController } from './notifications.controller';
import { ProblemsController } from './problems.controller';
import { RegisteredPictures } from './registered-pictures.service';
import { ReportsController } from './reports.controller';
import { RoomsController } from './rooms.controller';
import { ScheduleFileService } from './schedule-file.service';
import { ReadinessController } from './readiness.controller';
import { SchedulesController } from './schedules.controller';
import { SearchController } from './search.controller';
import { UptimeReportService } from './uptime-report.service';

/**
 * Buildings, rooms, equipment, what is down now, search, the uptime report, maintenance windows and
 * notification channels with their delivery log, the inventory CSV (export and import), and the
 * consumables report and fleet view of device health, and class schedules, each a call to the
 * inventory service.
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
    InventoryCsvController,
    DeviceHealthController,
    SchedulesController,
    ReadinessController,
  ],
  providers: [
    RegisteredPictures,
    UptimeReportService,
    InventoryExportService,
    InventoryImportService,
    ScheduleFileService,
    idleTimersProvider(IMPORT_IDLE_TIMERS),
  ],
})
export class InventoryModule {}
