import type { DependencyCheck, HealthReport, messages, ServiceName } from '@cm/contracts';
import { Controller, Get, Inject, Injectable, Optional, Res, type Type } from '@nestjs/common';
import type { Response } from 'express';
import { CONFIG, type CoreConfig } from './config';
import { natsAuthMode } from './nats/connection-options';
import { HandleMessage } from './nats/handle-message';
import { isDraining } from './shutdown';

export type HealthCheckFn = () => Promise<Partial<DependencyCheck> | void>;

const CHECK_TIMEOUT_MS = 2000;

/** Named readiness checks; a check is down when it throws or takes longer than two seconds. */
@Injectable()
export class HealthService {
  private readonly checks = new Map<string, HealthCheckFn>();

  constructor(@Optional() @Inject(CONFIG) private readonly config?: CoreConfig) {}

  register(name: string, check: HealthCheckFn): void {
    this.checks.set(name, check);
  }

  async report(): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await runCheck(check)] as const),
    );
    const checks: Record<string, DependencyCheck> = Object.fromEntries(entries);
    // Stopping: a balancer that reads readiness sends nothing new while the work in hand finishes.
    if (isDraining()) checks.shutdown = { status: 'down', detail: 'stopping: finishing the work in flight' };
    const status = Object.values(checks).every((c) => c.status === 'up') ? 'up' : 'down';
    return { status, checks, ...(this.config && { nats: { auth: natsAuthMode(this.config) } }) };
  }
}

export async function runCheck(check: HealthCheckFn, timeoutMs = CHECK_TIMEOUT_MS): Promise<DependencyCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started), ...(result ?? {}) };
  } catch (error) {
    return {
      status: 'down',
      latencyMs: Math.round(performance.now() - started),
      detail: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The NATS health message of one service, answered with its readiness report. */
export function healthMessageController(message: (typeof messages)[ServiceName]['health']): Type {
  @Controller()
  class HealthMessageController {
    constructor(private readonly health: HealthService) {}

    @HandleMessage(message)
    report(): Promise<HealthReport> {
      return this.health.report();
    }
  }
  return HealthMessageController;
}

/** Liveness and readiness on the service's own HTTP port, for Kubernetes probes. */
@Controller()
export class HealthHttpController {
  constructor(private readonly health: HealthService) {}

  @Get('healthz')
  live() {
    return { status: 'up' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.health.report();
    if (report.status !== 'up') res.status(503);
    return report;
  }
}
