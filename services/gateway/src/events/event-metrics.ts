import { Gauge, Registry } from '@cm/platform';

/** The live streams' metrics, in a registry of the app's own (tests run several gateways in a process). */
export class EventMetrics {
  readonly registry = new Registry();

  readonly streamsOpen = new Gauge({
    name: 'cm_gateway_event_streams_open',
    help: 'Live event streams (GET /api/events) this gateway process holds open.',
    registers: [this.registry],
  });
}
