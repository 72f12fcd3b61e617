import { Global, Module } from '@nestjs/common';
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
    AccountAuditConsumer,
  ],
  // Tokens too: the interceptor is built in the module of each audited controller, and names the
  // token a request came with.
  exports: [AuditRepository, AuditLog, AuditInterceptor, TokensModule],
})
export class AuditModule {}
