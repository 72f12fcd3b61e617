import { fleetSchema } from '../device-health';
import { type ApiRouteDef } from '../route-def';

/** Device health beyond ping: the consumables report and the fleet view. */
export const deviceHealthRoutes = {
  consumablesCsv: {
    method: 'GET',
    path: '/api/reports/consumables.csv',
    summary:
      'Every lamp and filter a probe read (consumables-{date}.csv): equipment, room, building, hours, rated life when known, the replacement part, hours used per day over the last 30 days and the day it reaches its rated life at that use; streamed as it is read',
    tag: 'Reports',
    access: 'user',
    responseContentType: 'text/csv',
  },
  fleet: {
    method: 'GET',
    path: '/api/fleet',
    summary:
      'Firmware versions per model (the newest seen, compared number by number, and how many devices run each), the devices not on the newest (at most 100 per model), and the devices that restarted in the last 24 hours (at most 500, latest first)',
    tag: 'Reports',
    access: 'user',
    response: fleetSchema,
  },
} as const satisfies Record<string, ApiRouteDef>;
