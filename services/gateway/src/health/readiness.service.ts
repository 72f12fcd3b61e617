import { type HealthAnswer, type HealthReport, messages, serviceNames, type User } from '@cm/contracts';
import { CONFIG, HealthService, RpcClient, runCheck } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';

/**
 * What a report shows whom: the checks name the services, the database and how NATS is secured
 * (`nats.auth`), which tell an outsider what to attack; the status is all a probe or an uptime
 * monitor needs.
 */
export function healthFor(report: HealthReport, viewer: User | undefined): HealthAnswer {
  return viewer?.role === 'admin' ? report : { status: report.status };
}

/**
 * Two views: the gateway process's own readiness (what Kubernetes routes traffic by), and the
 * whole system's state for people and monitoring (every service over NATS, and PostgreSQL).
 */
@Injectable()
export class ReadinessService {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly health: HealthService,
    private readonly rpc: RpcClient,
  ) {
    // Every route but the probes goes over NATS: without the connection this process serves nothing.
    health.register('nats', () => this.rpc.ping());
  }

  /**
   * Ready while its own PostgreSQL pool and NATS connection answer and it is not stopping. Another
   * service being away does not count: each route that needs it answers 503 on its own, and a pod
   * taken out of the Service for it would take every other route with it.
   */
  ready(): Promise<HealthReport> {
    return this.health.report();
  }

  private inFlight?: Promise<HealthReport>;

  /**
   * Up when every service answers with all its checks passing, and the gateway's own pass. The
   * route is public and each call asks four services (a query, a HeadBucket): requests that arrive
   * while one is being answered share its answer, so a flood costs one fan-out at a time.
   */
  system(): Promise<HealthReport> {
    this.inFlight ??= this.askEveryService().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async askEveryService(): Promise<HealthReport> {
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
