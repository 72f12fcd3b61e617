import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
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
  imports: [AuthModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditLog, auditClockProvider, AuditRetention, AuditInterceptor],
  exports: [AuditRepository, AuditLog, AuditInterceptor, AuthModule],
})
export class AuditModule {}
