import { z } from 'zod';
import { idSchema } from './common';
import { clockTime, isTimeZone } from './notifications';
import { READINESS_SUMMARY_MAX_CHANNELS } from './readiness';

/**
 * The morning summary (`GET/PUT /api/readiness/summary`): once a day at `time` in `timeZone`, the
 * rooms with classes the rest of that day and which of them are at risk go to the chosen
 * notification channels. `time` null: no summary.
 */
export const readinessSummarySettingsSchema = z.object({
  time: clockTime('Time').nullable(),
  timeZone: z
    .string({ message: 'Time zone must be text' })
    .refine(isTimeZone, { message: 'Time zone must be an IANA time zone, such as Europe/Berlin or UTC' }),
  channelIds: z
    .array(idSchema, { message: 'Channels must be a list of channel ids' })
    .max(READINESS_SUMMARY_MAX_CHANNELS, {
      message: `At most ${READINESS_SUMMARY_MAX_CHANNELS} channels`,
    })
    .transform((ids) => [...new Set(ids)]),
});
export type ReadinessSummarySettings = z.infer<typeof readinessSummarySettingsSchema>;
export type ReadinessSummarySettingsInput = z.input<typeof readinessSummarySettingsSchema>;
