import { apiRoutes } from '../../../lib/api-routes';
import { apiQuery } from '../../../lib/api';

/** Buildings, rooms and equipment whose text holds `q`, grouped by kind. */
export const searchQuery = (q: string) => apiQuery(apiRoutes.search, { q });
