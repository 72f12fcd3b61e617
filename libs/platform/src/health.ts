import type { DependencyCheck, HealthReport, messages, ReportState, ServiceName } from '@cm/contracts';
import { Controller, Get, Inject, Injectable, Optional, Res, type Type } from '@nestjs/common';
import type { Response } from 'express';
import { CONFIG, type CoreConfig } from './config';
import { platformMetrics } from './metrics/platform-metrics';
import { natsAuthMode } from './nats/connection-options';
import { HandleMessage } from './nats/handle-message';
import { isDraining } from './shutdown';

export type HealthCheckFn = () => Promise<Partial<DependencyCheck> | void>;

export interface HealthCheckOptions {
  /**
   * False for a dependency that only informs: the process still serves while it is down (each
   * request that needs it fails on its own), so readiness reports it without turning 503, and
   * Kubernetes keeps the pod in its Service. True (the default) for what every request needs.
   */
  critical?: boolean;
}

const CHECK_TIMEOUT_MS = 2000;

/**
 * Named readiness checks; a check is down when it throws or takes longer than two seconds. The
 * process is ready while every critical check passes and it is not stopping.
 */
@Injectable()
export class HealthService {
  private readonly checks = new Map<string, { check: HealthCheckFn; critical: boolean }>();

  constructor(@Optional() @Inject(CONFIG) private readonly config?: CoreConfig) {}

  register(name: string, check: HealthCheckFn, options: HealthCheckOptions = {}): void {
    this.checks.set(name, { check, critical: options.critical ?? true });
  }

  async report(): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks].map(
        async ([name, { check, critical }]) => [name, { ...(await runCheck(check)), critical }] as const,
      ),
    );
    const checks: Record<string, DependencyCheck> = Object.fromEntries(entries);
    // Stopping: a balancer that reads readiness sends nothing new while the work in hand finishes.
    if (isDraining())
      checks.shutdown = { status: 'down', detail: 'stopping: finishing the work in flight', critical: true };
    return {
      status: reportState(checks),
      checks,
      ...(this.config && { nats: { auth: natsAuthMode(this.config) } }),
    };
  }
}

/** Down when a needed check fails (one without `critical`, from an older process, is needed). */
export function reportState(checks: Record<string, DependencyCheck>): ReportState {
  const failing = Object.values(checks).filter((c) => c.status !== 'up');
  if (!failing.length) return 'up';
  return failing.some((c) => c.critical !== false) ? 'down' : 'degraded';
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
    async report(): Promise<HealthReport> {
      const report = await this.health.report();
      // A gateway of the previous release parses this reply with a schema that knows only up and
      // down (and would refuse the whole reply); the checks, each marked critical or not, say the rest.
      return report.status === 'degraded' ? { ...report, status: 'down' } : report;
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

  /** 503 only when the process cannot serve; a dependency that only informs is listed, not counted. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.health.report();
    // Degraded still serves: only a failing check of the pod's own counts as not ready.
    platformMetrics.observeReadiness(report.status === 'down' ? 'down' : 'up');
    if (report.status === 'down') res.status(503);
    return report;
  }
}
