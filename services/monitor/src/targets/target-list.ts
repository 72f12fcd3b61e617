import {
  allowedAddressProblem,
  type EquipmentChangedEvent,
  ipv4ToInt,
  isAddressError,
  MAX_TARGETS_PAGE,
  messages,
  parseAddressTarget,
} from '@cm/contracts';
import { CONFIG, retryWithBackoff, RpcClient } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Config } from '../config';
import { EquipmentChanges } from './equipment-changes';
import { packAddresses, type PackedAddresses } from './packed-addresses';

/** The equipment one replica pings in one part of a sweep, in list order, with their addresses. */
export interface TargetShare {
  equipmentIds: string[];
  /** `addresses[i]` are the addresses of `equipmentIds[i]`. */
  addresses: PackedAddresses[];
}

/**
 * This replica's copy of the equipment to ping. It starts following inventory's change events
 * (from now on), then loads the full list page by page, then
 * applies the events that arrived during the load in stream order, so nothing that changed
 * meanwhile is lost. The full load is repeated now and then as a safety net.
 */
@Injectable()
export class TargetList {
  private readonly logger = new Logger(TargetList.name);
  /**
   * Equipment id → its addresses, packed into a number: about 100 bytes an equipment, so that
   * every replica can hold the whole list of the largest campus (each pings a share of it).
   */
  private targets = new Map<string, PackedAddresses>();
  /** Events held back while a full load runs; null when none runs. */
  private held: EquipmentChangedEvent[] | null = null;
  private resync?: NodeJS.Timeout;
  private readonly stopped = new AbortController();
  private loadedOnce = false;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly rpc: RpcClient,
    private readonly changes: EquipmentChanges,
  ) {
    changes.listen((event) => {
      if (this.held) this.held.push(event);
      else this.apply(event);
    });
  }

  get loaded(): boolean {
    return this.loadedOnce;
  }

  get size(): number {
    return this.targets.size;
  }

  /**
   * The equipment `owns` accepts, as the list is now: changes that arrive while a sweep pings its
   * share count from the next sweep.
   */
  share(owns: (equipmentId: string) => boolean): TargetShare {
    const share: TargetShare = { equipmentIds: [], addresses: [] };
    // forEach rather than for…of: no entry array for each of tens of thousands of equipment.
    this.targets.forEach((addresses, equipmentId) => {
      if (!owns(equipmentId)) return;
      share.equipmentIds.push(equipmentId);
      share.addresses.push(addresses);
    });
    return share;
  }

  /** Follows the change events and loads the list, retrying until inventory answers. */
  async start(): Promise<void> {
    await this.changes.start();
    await retryWithBackoff(
      this.stopped.signal,
      async () => {
        await this.reload();
        return 'done';
      },
      (error, retryInMs) =>
        this.logger.warn(`Loading the equipment list failed, retrying in ${retryInMs} ms: ${String(error)}`),
    );
    if (this.stopped.signal.aborted) return;
    this.resync = setInterval(() => {
      this.reload().catch((error: unknown) =>
        this.logger.warn(`Reloading the equipment list failed: ${String(error)}`),
      );
    }, this.config.MONITOR_TARGETS_RESYNC_MS);
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    clearInterval(this.resync);
  }

  /** Replaces the list with inventory's, then applies what changed while it was read. */
  async reload(): Promise<void> {
    if (this.held) return;
    this.held = [];
    try {
      const fresh = new Map<string, PackedAddresses>();
      let after: string | undefined;
      do {
        const page = await this.rpc.send(messages.inventory.listTargets, {
          after,
          limit: MAX_TARGETS_PAGE,
        });
        for (const item of page.items) this.put(fresh, item.equipmentId, item.ipAddress);
        after = page.nextCursor ?? undefined;
      } while (after);
      this.targets = fresh;
      for (const event of this.held) this.apply(event);
      this.loadedOnce = true;
    } finally {
      this.held = null;
    }
  }

  private apply(event: EquipmentChangedEvent): void {
    // Probe settings are the probe targets' concern: the address, and so the ping, is unchanged.
    if (event.kind === 'probeChanged') return;
    if (event.kind === 'deleted' || !event.ipAddress) this.targets.delete(event.equipmentId);
    else this.put(this.targets, event.equipmentId, event.ipAddress);
  }

  private put(into: Map<string, PackedAddresses>, equipmentId: string, ipAddress: string): void {
    const parsed = parseAddressTarget(ipAddress);
    if (isAddressError(parsed)) {
      into.delete(equipmentId);
      this.logger.warn(`Equipment ${equipmentId} is not pinged: "${ipAddress}": ${parsed.error}`);
      return;
    }
    // Rows stored before inventory checked addresses, or before the networks were narrowed.
    const problem = allowedAddressProblem(parsed, this.config.MONITOR_ALLOWED_NETWORKS);
    if (problem) {
      into.delete(equipmentId);
      this.logger.warn(`Equipment ${equipmentId} is not pinged: ${problem}`);
      return;
    }
    // A range's addresses are consecutive within one /24 (the address grammar allows no other).
    into.set(equipmentId, packAddresses(ipv4ToInt(parsed.addresses[0])!, parsed.addresses.length));
  }
}
