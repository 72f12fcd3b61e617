import { apiRoutes } from '../../../lib/api-routes';
import { apiQuery } from '../../../lib/api';

/** One call for the tiles, the bar and the CSV: the server weighs the recorded status history. */
export const uptimeReportQuery = apiQuery(apiRoutes.uptimeReport);
