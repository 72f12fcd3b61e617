import { apiRoutes, type AuditPage, type RouteQuery } from '@cm/contracts';
import { Controller, Query } from '@nestjs/common';
import { ApiRoute } from '../http/api-route.decorator';
import { AuditRepository } from './audit.repository';

@Controller()
export class AuditController {
  constructor(private readonly entries: AuditRepository) {}

  @ApiRoute(apiRoutes.listAudit)
  list(@Query() query: RouteQuery<typeof apiRoutes.listAudit>): Promise<AuditPage> {
    return this.entries.page(query);
  }
}
