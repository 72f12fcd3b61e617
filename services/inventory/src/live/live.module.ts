import { Global, Module } from '@nestjs/common';
import { LiveEventsPublisher } from './live-events.publisher';

/** Live events for open screens, published after each commit. */
@Global()
@Module({ providers: [LiveEventsPublisher], exports: [LiveEventsPublisher] })
export class LiveModule {}
