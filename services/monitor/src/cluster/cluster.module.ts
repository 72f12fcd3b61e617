import { CONFIG, JetStreamConnection } from '@cm/platform';
import { Module } from '@nestjs/common';
import { type Config } from '../config';
import { Membership } from './membership';
import { MonitorStore } from './monitor-store';

/** The KV buckets the replicas share, and this replica's membership and ping session id. */
@Module({
  providers: [
    {
      provide: MonitorStore,
      inject: [JetStreamConnection, CONFIG],
      useFactory: (jetstream: JetStreamConnection, config: Config) =>
        MonitorStore.open(jetstream, config.MONITOR_MEMBER_TTL_MS),
    },
    {
      provide: Membership,
      inject: [MonitorStore, CONFIG],
      useFactory: (store: MonitorStore, config: Config) =>
        Membership.claim(store.members, {
          ttlMs: config.MONITOR_MEMBER_TTL_MS,
          sessionId: config.MONITOR_SESSION_ID,
        }),
    },
  ],
  exports: [MonitorStore, Membership],
})
export class ClusterModule {}
