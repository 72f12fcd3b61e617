import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { AuditRetention } from './audit-retention.service';
import { AuditController } from './audit.controller';
import { AuditInterceptor } from './audit.interceptor';
import { AuditRepository } from './audit.repository';

/** The audit log: written by one interceptor on every replica, read by GET /api/audit. */
@Module({
  imports: [AuthModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditRetention, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
})
export class AuditModule {}
