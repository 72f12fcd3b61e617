import { type z } from 'zod';
import { probeBatchSchema } from './device-health';
import { equipmentChangedEventSchema } from './equipment';
import { equipmentStatusEventSchema, inventoryChangedEventSchema, monitoringStateEventSchema } from './live';
import { events } from './jetstream-names';
import { statusMessageSchema } from './monitoring';
import { roomCheckedEventSchema } from './room-check';
import { accountChangedEventSchema } from './users';

/** The payload schema of every JetStream event subject: publishers and consumers check with it. */
export const eventSchemas = {
  [events.healthProbed]: probeBatchSchema,
  [events.statusChecked]: statusMessageSchema,
  [events.equipmentChanged]: equipmentChangedEventSchema,
  [events.liveEquipmentStatus]: equipmentStatusEventSchema,
  [events.liveInventoryChanged]: inventoryChangedEventSchema,
  [events.liveMonitoringState]: monitoringStateEventSchema,
  [events.liveRoomChecked]: roomCheckedEventSchema,
  [events.accountChanged]: accountChangedEventSchema,
} as const;

export type EventSubject = keyof typeof eventSchemas;
export type EventPayload<S extends EventSubject> = z.infer<(typeof eventSchemas)[S]>;
export type EventInput<S extends EventSubject> = z.input<(typeof eventSchemas)[S]>;
