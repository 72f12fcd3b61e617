import { Module } from '@nestjs/common';
import { FaultsRepository } from './faults.repository';
import { ProblemsMessageController } from './problems.message.controller';
import { ProblemsRepository } from './problems.repository';

@Module({ controllers: [ProblemsMessageController], providers: [ProblemsRepository, FaultsRepository] })
export class ProblemsModule {}
