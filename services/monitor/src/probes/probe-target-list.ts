import { messages, type ProbeTarget } from '@cm/contracts';
import { CONFIG, retryWithBackoff, RpcClient } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Config } from '../config';
import { EquipmentChanges } from '../targets/equipment-changes';

/**
 * Targets asked for a page at a time: one carries its settings, secrets and up to 20 SNMP values
 * (a few KB at most), so a page stays well within NATS's 1 MB message.
 */
export const PROBE_TARGETS_PAGE = 100;
/** Changes in quick succession (an import) are taken in one reload. */
const CHANGE_SETTLE_MS = 250;

export type ProbeTargetsListener = (targets: ProbeTarget[]) => void;

/**
 * The equipment probed beyond ping, with their settings and unsealed secrets, as inventory has
 * them: loaded at start (retried until inventory answers), again every
 * MONITOR_PROBE_TARGETS_RESYNC_MS, and shortly after any equipment change (created, readdressed,
 * deleted, probe settings changed). Whole reloads rather than applying each change: a change
 * event carries no settings or secrets, which travel only in answers to the monitor.
 */
@Injectable()
export class ProbeTargetList {
  private readonly logger = new Logger(ProbeTargetList.name);
  private listener: ProbeTargetsListener = () => undefined;
  private loading?: Promise<void>;
  /** A change arrived during a load: load again after it. */
  private again = false;
  private settle?: NodeJS.Timeout;
  private resync?: NodeJS.Timeout;
  private started = false;
  private readonly stopped = new AbortController();

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly rpc: RpcClient,
    private readonly changes: EquipmentChanges,
  ) {
    changes.listen(() => this.changed());
  }

  /** Called with the whole list after each load. */
  onLoad(listener: ProbeTargetsListener): void {
    this.listener = listener;
  }

  /** Follows the changes and loads the list, retrying until inventory answers. */
  async start(): Promise<void> {
    this.started = true;
    await this.changes.start();
    await retryWithBackoff(
      this.stopped.signal,
      async () => {
        await this.run();
        return 'done';
      },
      (error, retryInMs) =>
        this.logger.warn(`Loading the probe targets failed, retrying in ${retryInMs} ms: ${String(error)}`),
    );
    if (this.stopped.signal.aborted) return;
    this.resync = setInterval(() => this.reload(), this.config.MONITOR_PROBE_TARGETS_RESYNC_MS);
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    clearInterval(this.resync);
    clearTimeout(this.settle);
    await this.loading;
  }

  /** Loads the list again; a load under way is followed by one more. */
  reload(): void {
    if (this.stopped.signal.aborted) return;
    if (this.loading) this.again = true;
    else
      this.run().catch((error: unknown) =>
        this.logger.warn(`Reloading the probe targets failed: ${String(error)}`),
      );
  }

  /** One load at a time, so an older answer never replaces a newer one. */
  private run(): Promise<void> {
    if (this.loading) return this.loading;
    this.again = false;
    this.loading = this.load().finally(() => {
      this.loading = undefined;
      if (this.again) this.reload();
    });
    return this.loading;
  }

  private changed(): void {
    if (!this.started) return;
    this.settle ??= setTimeout(() => {
      this.settle = undefined;
      this.reload();
    }, CHANGE_SETTLE_MS);
  }

  private async load(): Promise<void> {
    const targets: ProbeTarget[] = [];
    let after: string | undefined;
    do {
      const page = await this.rpc.send(messages.inventory.listProbeTargets, {
        after,
        limit: PROBE_TARGETS_PAGE,
      });
      targets.push(...page.items);
      after = page.nextCursor ?? undefined;
    } while (after && !this.stopped.signal.aborted);
    if (!this.stopped.signal.aborted) this.listener(targets);
  }
}
