import { type z } from 'zod';
import { equipmentChangedEventSchema } from './equipment';
import { events } from './messaging';
import { statusMessageSchema } from './monitoring';

/** The payload schema of every JetStream event subject: publishers and consumers check with it. */
export const eventSchemas = {
  [events.statusChecked]: statusMessageSchema,
  [events.equipmentChanged]: equipmentChangedEventSchema,
} as const;

export type EventSubject = keyof typeof eventSchemas;
export type EventPayload<S extends EventSubject> = z.infer<(typeof eventSchemas)[S]>;
export type EventInput<S extends EventSubject> = z.input<(typeof eventSchemas)[S]>;
