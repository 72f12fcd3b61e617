import { type UptimeReport } from '@cm/contracts';
import { queryOptions } from '@tanstack/react-query';

/** One call for the tiles, the bar and the CSV: the server weighs the recorded status history. */
export const uptimeReportQuery = queryOptions<UptimeReport>({ queryKey: ['/api/reports/uptime'] });
