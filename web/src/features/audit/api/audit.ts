import { type AuditEntityType } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { apiQuery } from '../../../lib/api';

/** One record's latest entries, newest first. */
export const recentChangesQuery = (entityType: AuditEntityType, entityId: string) =>
  apiQuery(apiRoutes.listAudit, { entityType, entityId, limit: '10' });
