// Status's public face: what alerting may use of it (the catalogue may not). What status asks of
// alerting it declares here (`CheckAlerts`), and alerting implements.
export {
  type AlertOutcome,
  CHECK_ALERTS,
  type CheckAlerts,
  type CheckedDevice,
  noAlerts,
} from './checks/check-alerts';
export { ChecksModule } from './checks/checks.module';
export { HEALTH_ALERTS, type HealthAlerts, type HealthChange } from './health/health-alerts';
export { StatusRepository } from './checks/status.repository';
export { MaintenanceModule } from './maintenance/maintenance.module';
export { MaintenanceWindowsService } from './maintenance/maintenance-windows.service';
