import { auditPageSchema, auditQuerySchema } from '../audit';
import { type ApiRouteDef } from '../route-def';

export const auditRoutes = {
  listAudit: {
    method: 'GET',
    path: '/api/audit',
    summary:
      "The audit log, newest first, a page at a time: who changed what (with the fields before and after, never a password, secret or token), sign-ins, API token creation and administrators' use of admin routes. Filter by entityType, entityId, actor (a user id), from and to",
    tag: 'Audit',
    access: 'admin',
    query: auditQuerySchema,
    response: auditPageSchema,
  },
} as const satisfies Record<string, ApiRouteDef>;
