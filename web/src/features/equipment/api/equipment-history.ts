import { apiRoutes } from '@cm/contracts';
import { apiQuery } from '../../../lib/api';

/** The equipment's timeline over the server's default window, the last 30 days. */
export const equipmentHistoryQuery = (id: string) => apiQuery(apiRoutes.equipmentHistory, { id });
