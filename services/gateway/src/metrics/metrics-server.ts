import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { CONFIG, MetricsService } from '@cm/platform';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Config } from '../config';

/**
 * Prometheus text on a port of its own (METRICS_PORT), never on the public one: whoever reaches the
 * app, through the ingress or the pod's address, does not reach the metrics.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly server: Server;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    metrics: MetricsService,
  ) {
    this.server = createServer((req, res) => {
      if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
        metrics.respond(res).catch(() => res.writeHead(500).end());
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Only /metrics is served here\n');
      }
    });
  }

  /** The port bound (METRICS_PORT=0 picks a free one). */
  get port(): number {
    return (this.server.address() as AddressInfo | null)?.port ?? this.config.METRICS_PORT;
  }

  onApplicationBootstrap(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.config.METRICS_PORT, this.config.METRICS_HOST, () => resolve());
    });
  }

  onApplicationShutdown(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
