import { apiRoutes } from '../../../lib/api-routes';
import { apiQuery } from '../../../lib/api';

/** Firmware per model and the devices restarted in the last day, as the probes read them. */
export const fleetQuery = apiQuery(apiRoutes.fleet);
