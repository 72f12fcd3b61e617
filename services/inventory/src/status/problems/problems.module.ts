import { Module } from '@nestjs/common';
import { ProblemsMessageController } from './problems.message.controller';
import { ProblemsRepository } from './problems.repository';

@Module({ controllers: [ProblemsMessageController], providers: [ProblemsRepository] })
export class ProblemsModule {}
