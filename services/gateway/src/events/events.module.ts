import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { TokensModule } from '../tokens/tokens.module';
import { EventStreams } from './event-streams.service';
import { EventsController } from './events.controller';
import { LiveFeed } from './live-feed';

/** `GET /api/events`: live events for open screens, from the JetStream stream `LIVE`. */
@Module({
  imports: [IdentityModule, TokensModule],
  controllers: [EventsController],
  providers: [LiveFeed, EventStreams],
})
export class EventsModule {}
