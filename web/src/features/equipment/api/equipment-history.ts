import { apiRoutes } from '../../../lib/api-routes';
import { apiQuery } from '../../../lib/api';

/** The equipment's timeline over the server's default window, the last 30 days. */
export const equipmentHistoryQuery = (id: string) => apiQuery(apiRoutes.equipmentHistory, { id });
