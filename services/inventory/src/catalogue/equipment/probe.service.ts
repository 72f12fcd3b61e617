import {
  type Equipment,
  ErrorCode,
  type ProbeSecretName,
  type ProbeTarget,
  type ProbeTargetsPage,
} from '@cm/contracts';
import { AppError, CONFIG, openSecret, sealSecret } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Config } from '../../config';
import { type Transaction } from '../../shared/database/table.repository';
import { deviceHealthOf } from '../../shared/health/health-view';
import {
  checkProbe,
  defaultProbe,
  nextSecrets,
  type ProbeInput,
  probeViewOf,
  secretOwner,
  settingsOf,
} from './probe-settings';
import { ProbeRepository, type SealedTarget } from './probe.repository';

/**
 * Equipment probes beyond ping: settings written with the equipment's create and update (in their
 * transaction), secrets sealed with ALERTS_SECRET_KEY and never answered, the health read for
 * equipment answers, and the monitor's probe targets with their secrets opened.
 */
@Injectable()
export class ProbeService {
  private readonly logger = new Logger(ProbeService.name);

  constructor(
    private readonly probes: ProbeRepository,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** In the create's transaction: the probe chosen, else its preset's or type's. */
  async created(tx: Transaction, equipment: Equipment, input: ProbeInput | undefined): Promise<Equipment> {
    const settings = input ? settingsOf(input) : defaultProbe(equipment);
    checkProbe(settings, equipment.ipAddress, input?.secrets);
    const secrets = nextSecrets(settings, {}, input?.secrets, this.sealer(equipment.id));
    await this.probes.write(tx, equipment.id, settings, secrets);
    return { ...equipment, probe: probeViewOf(settings, Object.keys(secrets)), health: null };
  }

  /**
   * In the update's transaction, after the equipment's columns were written: the probe given, or
   * the one it had, checked against the address it has now.
   */
  async updated(
    tx: Transaction,
    equipment: Equipment,
    input: ProbeInput | undefined,
    addressChanged: boolean,
  ): Promise<Equipment> {
    if (input || addressChanged) {
      const current = await this.probes.lock(tx, equipment.id);
      if (current) {
        const settings = input ? settingsOf(input) : current.settings;
        checkProbe(settings, current.ipAddress, input?.secrets);
        const secrets = nextSecrets(settings, current.secrets, input?.secrets, this.sealer(equipment.id));
        await this.probes.write(tx, equipment.id, settings, secrets);
      }
    }
    const [withProbe] = await this.withProbes([equipment], tx);
    return withProbe;
  }

  /** Equipment answers with their probe and health. */
  async withProbes<E extends Equipment>(list: E[], tx?: Transaction): Promise<E[]> {
    const views = await this.probes.views(
      list.map((e) => e.id),
      tx,
    );
    return list.map((equipment) => {
      const row = views.get(equipment.id);
      if (!row) return equipment;
      return {
        ...equipment,
        probe: probeViewOf(row.settings, row.secretNames),
        health: deviceHealthOf(row, row.settings),
      };
    });
  }

  /** A page of the monitor's probe targets, with their secrets opened. */
  async targets(after: string | undefined, limit: number): Promise<ProbeTargetsPage> {
    const rows = await this.probes.targets(after, limit);
    return {
      items: rows.map((row) => this.opened(row)),
      nextCursor: rows.length === limit ? rows[rows.length - 1].equipmentId : null,
    };
  }

  private opened({ equipmentId, address, settings, secrets }: SealedTarget): ProbeTarget {
    const open: ProbeTarget['secrets'] = {};
    for (const [name, sealed] of Object.entries(secrets) as [ProbeSecretName, string][]) {
      try {
        open[name] = openSecret(this.key(), sealed, secretOwner(equipmentId, name));
      } catch (error) {
        // Probed without it: the device refusing says so in its health, which a person can fix.
        this.logger.warn(
          `The probe ${name} of equipment ${equipmentId} cannot be opened (was ALERTS_SECRET_KEY changed?): ${String(error)}`,
        );
      }
    }
    return { equipmentId, address, probe: settings, secrets: open };
  }

  private sealer(equipmentId: string) {
    return (name: ProbeSecretName, value: string) =>
      sealSecret(this.key(name), value, secretOwner(equipmentId, name));
  }

  private key(name?: ProbeSecretName): Buffer {
    const key = this.config.ALERTS_SECRET_KEY;
    if (key) return key;
    const message =
      'Probe passwords and SNMP credentials need ALERTS_SECRET_KEY set for the inventory service, which seals them (see docs/operations.md)';
    throw new AppError(ErrorCode.VALIDATION_FAILED, message, [
      { path: name ? `probe.secrets.${name}` : 'probe.secrets', message },
    ]);
  }
}
