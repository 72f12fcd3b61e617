// Without zod: the web app's first screens read it (issue 37's budget).

import { datedCsvFileName } from './csv';

/** Spec section 9: equipment-uptime-report-{date}.csv, the date as YYYY-MM-DD in local time. */
export const uptimeCsvFileName = (now: Date): string => datedCsvFileName('equipment-uptime-report', now);
