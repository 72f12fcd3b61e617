import { randomBytes } from 'node:crypto';
import { deepProbeRangeMessage, ErrorCode, messages } from '@cm/contracts';
import { equipmentChangeReader, failureOf, inventoryUnderTest, sql } from './support';

describe('inventory equipment probes', () => {
  const inventory = inventoryUnderTest({ ALERTS_SECRET_KEY: randomBytes(32).toString('base64') });
  const { make, send } = inventory;
  let roomId: string;
  const update = (id: string, changes: object) =>
    send(messages.inventory.updateEquipment, { id, changes: { name: 'Projector', ...changes } });
  const storedSecrets = async (id: string) =>
    (
      await sql<{ secrets: object }>(
        inventory.sut,
        'SELECT probe_secrets AS secrets FROM inv.equipment WHERE id = $1',
        [id],
      )
    )[0].secrets;

  beforeEach(async () => {
    await sql(inventory.sut, 'DELETE FROM inv.buildings');
    roomId = (await make.room((await make.building()).id)).id;
  });

  it('keeps probe secrets write-only: sealed at rest, named in answers, never echoed', async () => {
    const created = await make.equipment(roomId, {
      ipAddress: '10.0.0.7',
      probe: {
        type: 'pjlink',
        port: 4353,
        lampRatedHours: 3000,
        secrets: { password: 'JBMIAProjectorLink' },
      },
    });
    expect(created.probe).toEqual({
      type: 'pjlink',
      port: 4353,
      lampRatedHours: 3000,
      secretsSet: ['password'],
    });
    expect(created.health).toBeNull();
    const read = await send(messages.inventory.getEquipment, { id: created.id });
    expect(read.probe).toEqual(created.probe);
    const listed = await send(messages.inventory.listEquipment, { roomId });
    expect(JSON.stringify([created, read, listed])).not.toContain('JBMIAProjectorLink');
    const sealed = await storedSecrets(created.id);
    expect(Object.keys(sealed)).toEqual(['password']);
    expect(JSON.stringify(sealed)).not.toContain('JBMIAProjectorLink');
  });

  it('keeps a secret left out, replaces one given and clears one sent as null', async () => {
    const { id } = await make.equipment(roomId, {
      ipAddress: '10.0.0.8',
      probe: {
        type: 'snmp',
        version: '3',
        username: 'monitor',
        secrets: { authKey: 'auth-key-1', privKey: 'priv-key-1' },
      },
    });
    const target = async () =>
      (await send(messages.inventory.listProbeTargets, { limit: 100 })).items.find(
        (t) => t.equipmentId === id,
      );

    const kept = await update(id, { probe: { type: 'snmp', version: '3', username: 'monitor', port: 1161 } });
    expect(kept.probe).toMatchObject({ type: 'snmp', port: 1161, secretsSet: ['authKey', 'privKey'] });
    expect((await target())?.secrets).toEqual({ authKey: 'auth-key-1', privKey: 'priv-key-1' });

    const replaced = await update(id, {
      probe: { type: 'snmp', version: '3', secrets: { authKey: 'auth-key-2', privKey: null } },
    });
    expect(replaced.probe?.secretsSet).toEqual(['authKey']);
    expect((await target())?.secrets).toEqual({ authKey: 'auth-key-2' });

    // An edit without a probe keeps it, secrets and all.
    expect((await update(id, { notes: 'rack 2' })).probe?.secretsSet).toEqual(['authKey']);
    // Another protocol drops the secrets the old one used.
    expect((await update(id, { probe: { type: 'tcp', port: 41794 } })).probe).toEqual({
      type: 'tcp',
      port: 41794,
      secretsSet: [],
    });
  });

  it('refuses a deep probe on a range of addresses, and secrets the protocol does not use', async () => {
    const onRange = await failureOf(
      make.equipment(roomId, { ipAddress: '10.0.0.20-23', probe: { type: 'pjlink' } }),
    );
    expect(onRange).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message: deepProbeRangeMessage });

    const { id } = await make.equipment(roomId, { ipAddress: '10.0.0.9', probe: { type: 'pjlink' } });
    expect(await failureOf(update(id, { ipAddress: '10.0.0.9-12' }))).toMatchObject({
      message: deepProbeRangeMessage,
    });
    expect((await send(messages.inventory.getEquipment, { id })).ipAddress).toBe('10.0.0.9');

    const stray = await failureOf(
      update(id, { probe: { type: 'pjlink', secrets: { community: 'public' } } }),
    );
    expect(stray).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'A PJLink probe takes only password, not community',
    });
  });

  it('gives new equipment the probe of its preset or type when the form chose none', async () => {
    const probeOf = async (equipment: object) => (await make.equipment(roomId, equipment)).probe;
    expect(await probeOf({ type: 'Projector', ipAddress: '10.0.0.30' })).toEqual({
      type: 'pjlink',
      secretsSet: [],
    });
    expect(await probeOf({ name: 'DSP', model: 'Core Nano', ipAddress: '10.0.0.31' })).toMatchObject({
      type: 'qsys',
    });
    expect(await probeOf({ type: 'Network switch', ipAddress: '10.0.0.32' })).toMatchObject({
      type: 'snmp',
      version: '2c',
    });
    // A range is pinged: no deep probe is chosen for it.
    expect(await probeOf({ type: 'Projector', ipAddress: '10.0.0.40-45' })).toEqual({
      type: 'icmp',
      secretsSet: [],
    });
    expect(await probeOf({ ipAddress: '10.0.0.33' })).toEqual({ type: 'icmp', secretsSet: [] });
  });

  it('lists the probe targets a page at a time, with their secrets opened, for the monitor', async () => {
    const pjlink = await make.equipment(roomId, {
      ipAddress: '10.0.0.50',
      probe: { type: 'pjlink', secrets: { password: 'secret-1' } },
    });
    const qsys = await make.equipment(roomId, { ipAddress: '10.0.0.51', probe: { type: 'qsys' } });
    await make.equipment(roomId, { ipAddress: '10.0.0.52' });
    await make.equipment(roomId, { ipAddress: '10.0.0.60-62' });
    await make.equipment(roomId, { probe: { type: 'pjlink' } });

    const first = await send(messages.inventory.listProbeTargets, { limit: 1 });
    const rest = await send(messages.inventory.listProbeTargets, { after: first.nextCursor!, limit: 10 });
    expect(rest.nextCursor).toBeNull();
    const targets = [...first.items, ...rest.items].sort((a, b) => a.address.localeCompare(b.address));
    expect(targets).toEqual([
      {
        equipmentId: pjlink.id,
        address: '10.0.0.50',
        probe: { type: 'pjlink' },
        secrets: { password: 'secret-1' },
      },
      { equipmentId: qsys.id, address: '10.0.0.51', probe: { type: 'qsys' }, secrets: {} },
    ]);
  });

  it('tells the monitor of a probe change through the equipment change events', async () => {
    const reader = await equipmentChangeReader(inventory.namespace);
    try {
      const { id } = await make.equipment(roomId, { ipAddress: '10.0.0.70' });
      await update(id, { probe: { type: 'pjlink', secrets: { password: 'x' } } });
      // The same probe again changes nothing, and announces nothing.
      await update(id, { probe: { type: 'pjlink' } });
      await update(id, { probe: { type: 'pjlink', secrets: { password: null } } });
      const changes = (await reader.next(50, 3000)).filter((e) => e.equipmentId === id);
      expect(changes.map((e) => e.kind)).toEqual(['created', 'probeChanged', 'probeChanged']);
    } finally {
      await reader.close();
    }
  });
});
