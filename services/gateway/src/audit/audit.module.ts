import { Global, Module } from '@nestjs/common';
import { RouteAudit } from '../http/route-audit';
import { TokensModule } from '../tokens/tokens.module';
import { AccountAuditConsumer } from './account-audit.consumer';
import { AuditLog, auditClockProvider } from './audit-log';
import { AuditRetention } from './audit-retention.service';
import { AuditController } from './audit.controller';
import { AuditInterceptor } from './audit.interceptor';
import { AuditRepository } from './audit.repository';

/**
 * The audit log: written by one interceptor on every replica, read by GET /api/audit. Global, as
 * the interceptor is put on the audited routes of every controller (`ApiRoute`), in their modules.
 */
@Global()
@Module({
  imports: [TokensModule],
  controllers: [AuditController],
  providers: [
    AuditRepository,
    AuditLog,
    auditClockProvider,
    AuditRetention,
    AuditInterceptor,
    { provide: RouteAudit, useExisting: AuditInterceptor },
    AccountAuditConsumer,
  ],
  // The interceptor is built here, once; `ApiRoute` builds what calls it (`RouteAuditInterceptor`)
  // in the module of each audited controller. Tokens too, as before: a request's token is named.
  exports: [AuditRepository, AuditLog, AuditInterceptor, RouteAudit, TokensModule],
})
export class AuditModule {}
