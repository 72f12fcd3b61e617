import { CreateInventory1732500000000 } from './1732500000000-create-inventory';
import { StatusSpans1763900000000 } from './1763900000000-status-spans';
import { ClearForeignPictures1764000000000 } from './1764000000000-clear-foreign-pictures';
import { SearchIndexes1764100000000 } from './1764100000000-search-indexes';
import { StatusHours1764200000000 } from './1764200000000-status-hours';
import { NotificationChannels1764300000000 } from './1764300000000-notification-channels';
import { MaintenanceWindows1764350000000 } from './1764350000000-maintenance-windows';
import { Alerts1764400000000 } from './1764400000000-alerts';
import { UpstreamEquipment1764450000000 } from './1764450000000-upstream-equipment';
import { QuietHours1764500000000 } from './1764500000000-quiet-hours';
import { ImportStaging1764550000000 } from './1764550000000-import-staging';
import { DeliveryErrorsWithoutAnswers1764610000000 } from './1764610000000-delivery-errors-without-answers';
import { MonitoringState1764700000000 } from './1764700000000-monitoring-state';
import { DeviceHealth1764900000000 } from './1764900000000-device-health';
import { RecordVersions1765000000000 } from './1765000000000-record-versions';
import { ChatChannels1765390000000 } from './1765390000000-chat-channels';
import { ServiceDeskIncidents1765395000000 } from './1765395000000-service-desk-incidents';
import { Schedules1765400000000 } from './1765400000000-schedules';
import { Readiness1765410000000 } from './1765410000000-readiness';
import { MorningSummary1765420000000 } from './1765420000000-morning-summary';
import { HandledStatusMessages1765430000000 } from './1765430000000-handled-status-messages';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [
  CreateInventory1732500000000,
  StatusSpans1763900000000,
  ClearForeignPictures1764000000000,
  SearchIndexes1764100000000,
  StatusHours1764200000000,
  NotificationChannels1764300000000,
  MaintenanceWindows1764350000000,
  Alerts1764400000000,
  UpstreamEquipment1764450000000,
  QuietHours1764500000000,
  ImportStaging1764550000000,
  DeliveryErrorsWithoutAnswers1764610000000,
  MonitoringState1764700000000,
  DeviceHealth1764900000000,
  RecordVersions1765000000000,
  ChatChannels1765390000000,
  ServiceDeskIncidents1765395000000,
  Schedules1765400000000,
  Readiness1765410000000,
  MorningSummary1765420000000,
  HandledStatusMessages1765430000000,
];
