import { CONFIG } from '@cm/platform';
import { Module } from '@nestjs/common';
import { ClusterModule } from '../cluster/cluster.module';
import { Membership } from '../cluster/membership';
import { type Config } from '../config';
import { Pinger } from './pinger';

/** The process's one ping session, with the session id this replica claimed on its host. */
@Module({
  imports: [ClusterModule],
  providers: [
    {
      provide: Pinger,
      inject: [Membership, CONFIG],
      useFactory: (membership: Membership, config: Config) =>
        new Pinger({
          sessionId: membership.sessionId,
          timeoutMs: config.MONITOR_PING_TIMEOUT_MS,
          retries: config.MONITOR_PING_RETRIES,
          packetGapMs: config.MONITOR_PACKET_GAP_MS,
          maxOutstanding: config.MONITOR_MAX_OUTSTANDING,
        }),
    },
  ],
  exports: [Pinger],
})
export class PingModule {}
