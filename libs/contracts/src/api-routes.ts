import { type ApiRouteDef } from './route-def';
import { accountRoutes } from './routes/account';
import { apiTokenRoutes } from './routes/api-tokens';
import { auditRoutes } from './routes/audit';
import { authRoutes } from './routes/auth';
import { eventRoutes } from './routes/events';
import { inventoryRoutes } from './routes/inventory';
import { inventoryCsvRoutes } from './routes/inventory-csv';
import { mediaRoutes } from './routes/media';
import { monitoringRoutes } from './routes/monitoring';
import { notificationRoutes } from './routes/notifications';
import { operationsRoutes } from './routes/operations';
import { readinessRoutes } from './routes/readiness';
import { scheduleRoutes } from './routes/schedules';
import { userRoutes } from './routes/users';

export * from './route-def';

/**
 * The `/api` surface, one file per feature under routes/. The gateway routes each controller
 * method by one of these entries, validates with its schemas, checks its access level, and
 * generates the OpenAPI document from the same list: documentation and routing cannot disagree.
 */
export const apiRoutes = {
  ...operationsRoutes,
  ...authRoutes,
  ...accountRoutes,
  ...userRoutes,
  ...apiTokenRoutes,
  ...auditRoutes,
  ...mediaRoutes,
  ...inventoryRoutes,
  ...inventoryCsvRoutes,
  ...monitoringRoutes,
  ...notificationRoutes,
  ...scheduleRoutes,
  ...readinessRoutes,
  ...eventRoutes,
} as const satisfies Record<string, ApiRouteDef>;

export type ApiRouteName = keyof typeof apiRoutes;
