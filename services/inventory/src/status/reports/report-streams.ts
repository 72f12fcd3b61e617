import { messages, REPORT_WINDOW_HOURS, type MessagePayload } from '@cm/contracts';
import { ChunkStreamServer, CONFIG, RpcClient } from '@cm/platform';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type Config } from '../../config';
import { InventoryMetrics } from '../../shared/metrics/inventory-metrics';
import { ReportRepository } from './report.repository';

/**
 * The uptime CSVs being downloaded from this replica, each one COPY of the report's query, pulled
 * by the gateway a chunk at a time (`inventory.report.chunk.<id>`, see ChunkStreamServer).
 */
@Injectable()
export class ReportStreams implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly server: ChunkStreamServer;

  constructor(
    private readonly reports: ReportRepository,
    rpc: RpcClient,
    @Inject(CONFIG) private readonly config: Config,
    metrics: InventoryMetrics,
  ) {
    this.server = new ChunkStreamServer({
      rpc,
      namespace: config.CM_NAMESPACE,
      def: messages.inventory.reportChunk,
      idleMs: config.INVENTORY_REPORT_IDLE_MS,
      max: config.INVENTORY_REPORT_STREAMS_MAX,
      onEnd: (outcome) => metrics.reportStreams.inc({ outcome }),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.server.listen();
  }

  onApplicationShutdown(): Promise<void> {
    return this.server.close();
  }

  /** Opens the report over the 720 hours before `asOf` (default now), ready to be pulled. */
  async open({ streamId, asOf }: MessagePayload<typeof messages.inventory.openReport>) {
    const to = asOf ? new Date(asOf) : new Date();
    const from = new Date(to.getTime() - REPORT_WINDOW_HOURS * 3_600_000);
    await this.server.open(
      streamId,
      this.reports.uptimeCsv(from, to, this.config.INVENTORY_REPORT_CHUNK_BYTES),
    );
    return { streamId };
  }
}
