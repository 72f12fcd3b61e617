import { Module } from '@nestjs/common';
import { MaintenanceLive } from './maintenance-live';
import { MaintenanceWindowRepository } from './maintenance-window.repository';
import { MaintenanceWindowsMessageController } from './maintenance-windows.message.controller';
import { MaintenanceWindowsService } from './maintenance-windows.service';

/**
 * Maintenance windows. The service is exported for alerting, which asks it which equipment is
 * inside a window before it alerts.
 */
@Module({
  controllers: [MaintenanceWindowsMessageController],
  providers: [MaintenanceWindowRepository, MaintenanceWindowsService, MaintenanceLive],
  exports: [MaintenanceWindowsService],
})
export class MaintenanceModule {}
