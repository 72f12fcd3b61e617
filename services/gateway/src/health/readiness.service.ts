import { type HealthReport, messages, serviceNames } from '@cm/contracts';
import { CONFIG, HealthService, RpcClient, runCheck } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';

/** Readiness of the whole system as the gateway sees it: every service over NATS, and PostgreSQL. */
@Injectable()
export class ReadinessService {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly health: HealthService,
    private readonly rpc: RpcClient,
  ) {}

  async report(): Promise<HealthReport> {
    const timeoutMs = this.config.READINESS_TIMEOUT_MS;
    const [own, ...services] = await Promise.all([
      this.health.report(),
      ...serviceNames.map(async (service) => {
        const check = await runCheck(async () => {
          const report = await this.rpc.send(messages[service].health, {}, { timeoutMs });
          const down = Object.entries(report.checks).filter(([, c]) => c.status !== 'up');
          if (down.length)
            throw new Error(down.map(([name, c]) => `${name}: ${c.detail ?? 'down'}`).join('; '));
        }, timeoutMs + 500);
        return [service, check] as const;
      }),
    ]);
    const checks = { gateway: { status: 'up' as const }, ...Object.fromEntries(services), ...own.checks };
    const status = Object.values(checks).every((c) => c.status === 'up') ? 'up' : 'down';
    return { status, checks, nats: own.nats };
  }
}
