import {
  type AuditPage,
  type Building,
  type Equipment,
  type Fleet,
  type MonitoringStatus,
  type Room,
} from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { sessionApi, sessionHeaders, signIn } from './session';
import { type SharedSystem, sharedSystem } from './shared-system';
import {
  closeHealthDevices,
  healthEquipment,
  type HealthEquipmentName,
  type HealthDevices,
  LAMP_RATED_HOURS,
  secrets,
  startHealthDevices,
  SWITCHER_MODEL,
} from './support/health-devices';

/**
 * Probes run every 10 s (the least a device may be asked); the monitor hears of new equipment
 * from inventory's change events and the ping sweep runs every 30 s. A wait covers several of
 * each on a loaded machine: the tests assert what the readings say, never how soon they came.
 */
const DEADLINE_MS = 150_000;
jest.setTimeout(4 * DEADLINE_MS);

/**
 * Device health through the whole system: simulated devices on loopback addresses, equipment
 * with probes created through the API, monitoring started, and what the monitor read checked in
 * the equipment answers, the audit log and the exports as a person would see it.
 */
describe('device health beyond ping', () => {
  let system: SharedSystem;
  let cookie = '';
  let devices: HealthDevices;
  let roomId = '';
  const ids = {} as Record<HealthEquipmentName, string>;
  const api = sessionApi(
    () => system.url,
    () => cookie,
  );
  const text = async (route: string) => {
    const res = await fetch(`${system.url}${route}`, {
      headers: sessionHeaders(cookie),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.text() };
  };

  const listEquipment = () => text(`/api/rooms/${roomId}/equipment`);
  const equipmentNamed = async (name: HealthEquipmentName) => {
    const list = await api<Equipment[]>('GET', `/api/rooms/${roomId}/equipment`);
    expect(list.status).toBe(200);
    const found = list.body.find((e) => e.id === ids[name]);
    if (!found) throw new Error(`${name} is not among the room's equipment`);
    return found;
  };
  /** The equipment once `check` passes on it. */
  const settled = (name: HealthEquipmentName, check: (e: Equipment) => void) =>
    eventually(
      async () => {
        const equipment = await equipmentNamed(name);
        check(equipment);
        return equipment;
      },
      DEADLINE_MS,
      1000,
    );
  const stateOf = (state: string) => (e: Equipment) => expect(e.health?.state).toBe(state);

  beforeAll(async () => {
    system = sharedSystem();
    cookie = await signIn(system.url, system.admin.username, system.admin.password);
    devices = await startHealthDevices();
    const building = await api<Building>('POST', '/api/buildings', { name: 'Device Health Hall' });
    const room = await api<Room>('POST', `/api/buildings/${building.body.id}/rooms`, {
      name: 'Lecture Hall 62',
      type: 'Lecture Hall',
      floor: '1',
      capacity: 120,
    });
    expect(room).toMatchObject({ status: 201 });
    roomId = room.body.id;
    for (const [name, equipment] of Object.entries(healthEquipment)) {
      const created = await api<Equipment>('POST', `/api/rooms/${roomId}/equipment`, equipment);
      expect(created).toMatchObject({ status: 201 });
      ids[name as HealthEquipmentName] = created.body.id;
    }
    expect((await api<MonitoringStatus>('POST', '/api/monitoring/start')).body.isRunning).toBe(true);
  });

  afterAll(async () => {
    // The shared system goes on to other files as it was: monitoring stopped.
    if (cookie) await api('POST', '/api/monitoring/stop');
    if (devices) await closeHealthDevices(devices);
  });

  it('reads a PJLink class 2 projector with its password: power, lamp, filter, model, serial and firmware, and fills the empty model and serial number', async () => {
    const projector = await settled('projector', stateOf('ok'));
    expect(projector.health).toMatchObject({
      state: 'ok',
      reasons: [],
      power: 'on',
      lamps: [{ hours: 1234, on: true }],
      filterHours: 321,
      input: 'Digital 1',
      model: 'EPSON EB-L1070U',
      serial: 'X3JK8800123',
      firmware: '1.02',
      checkedAt: expect.any(String),
    });
    expect(projector).toMatchObject({ model: 'EPSON EB-L1070U', serialNumber: 'X3JK8800123' });
  });

  it('tells a wrong PJLink password apart from a device that is down', async () => {
    const locked = await settled('locked', stateOf('error'));
    expect(locked.health?.reasons).toEqual(['Wrong PJLink password']);
    expect(locked.health?.power).toBeUndefined();
  });

  it('a device that answers ping but not PJLink has a PJLink error naming the port, while ping keeps it active', async () => {
    const spare = await settled('spare', (e) => {
      expect(e.health?.state).toBe('error');
      // Pinged, and answered: a round trip is recorded.
      expect(e.lastRttMs).not.toBeNull();
    });
    expect(spare.health?.reasons).toEqual([expect.stringMatching(/PJLink.*port 4352/)]);
    expect(spare.status).toBe('active');
  });

  it('warns when a lamp passes its warning hours and nears its rated life', async () => {
    const fresh = await settled('worn', stateOf('ok'));
    expect(fresh.health?.lamps).toEqual([{ hours: 2600, on: true, ratedHours: LAMP_RATED_HOURS }]);

    devices.worn.advanceHours(350);
    const worn = await settled('worn', stateOf('warning'));
    expect(worn.health?.reasons).toEqual(['Lamp warning', 'Lamp 1 at 2,950 of 3,000 hours']);
    expect(worn.health?.lamps).toEqual([{ hours: 2950, on: true, ratedHours: LAMP_RATED_HOURS }]);
  });

  it('reads an SNMP v3 device as its authPriv user (SHA, AES) and records its restart after the next probe', async () => {
    const display = await settled('display', stateOf('ok'));
    expect(display.health).toMatchObject({ reasons: [], model: 'Samsung QM85R', firmware: '1.12' });
    expect(display.health?.rebootedAt).toBeUndefined();
    expect(display).toMatchObject({ model: 'Samsung QM85R' });

    const rebooting = Date.now();
    devices.display.reboot();
    const rebooted = await settled('display', (e) => expect(e.health?.rebootedAt).toBeDefined());
    // When it restarted, from its uptime: about when it did (the clock and the probe's own time aside).
    const rebootedAt = Date.parse(rebooted.health!.rebootedAt!);
    expect(rebootedAt).toBeGreaterThan(rebooting - 5_000);
    expect(rebootedAt).toBeLessThanOrEqual(Date.parse(rebooted.health!.checkedAt));
    // A restart is an event, not a fault.
    expect(rebooted.health?.state).toBe('ok');
  });

  it('records a firmware update of one of two switchers of a model', async () => {
    for (const name of ['switcherA', 'switcherB'] as const) {
      const switcher = await settled(name, (e) => expect(e.health?.firmware).toBe('1.04'));
      expect(switcher).toMatchObject({
        model: SWITCHER_MODEL,
        health: { state: 'ok', model: SWITCHER_MODEL },
      });
    }

    devices.switcherA.update({ firmware: '1.05' });
    await settled('switcherA', (e) => expect(e.health?.firmware).toBe('1.05'));
    expect((await equipmentNamed('switcherB')).health?.firmware).toBe('1.04');
  });

  it('never answers, logs or exports a probe secret, and a corrected password clears the error', async () => {
    const listed = await listEquipment();
    expect(listed.status).toBe(200);
    for (const secret of Object.values(secrets)) expect(listed.body).not.toContain(secret);
    const equipment = JSON.parse(listed.body) as Equipment[];
    const probeOf = (name: HealthEquipmentName) => equipment.find((e) => e.id === ids[name])?.probe;
    expect(probeOf('projector')).toEqual({ type: 'pjlink', intervalSeconds: 10, secretsSet: ['password'] });
    expect(probeOf('spare')).toEqual({ type: 'pjlink', intervalSeconds: 10, secretsSet: [] });
    expect(probeOf('display')).toMatchObject({ type: 'snmp', version: '3', username: 'monitor' });
    expect([...(probeOf('display')?.secretsSet ?? [])].sort()).toEqual(['authKey', 'privKey']);

    const corrected = await api<Equipment>('PUT', `/api/equipment/${ids.locked}`, {
      name: healthEquipment.locked.name,
      probe: { ...healthEquipment.locked.probe, secrets: { password: secrets.lockedPassword } },
    });
    expect(corrected.status).toBe(200);
    expect(JSON.stringify(corrected.body)).not.toContain(secrets.lockedPassword);
    expect(corrected.body.probe?.secretsSet).toEqual(['password']);

    const audit = await eventually(
      async () => {
        const page = await text(`/api/audit?entityType=equipment&entityId=${ids.locked}`);
        expect(page.status).toBe(200);
        const entries = (JSON.parse(page.body) as AuditPage).items;
        expect(entries.map((e) => e.action).sort()).toEqual(['create', 'update']);
        return { page: page.body, entries };
      },
      30_000,
      500,
    );
    for (const secret of Object.values(secrets)) expect(audit.page).not.toContain(secret);
    // The log says the password changed, without either value.
    expect(audit.entries.find((e) => e.action === 'update')?.after).toMatchObject({
      'probe.secrets': '[redacted]',
    });

    const exported = await text('/api/inventory/export.csv');
    expect(exported.status).toBe(200);
    expect(exported.body).toContain('Locked projector');
    for (const secret of Object.values(secrets)) expect(exported.body).not.toContain(secret);

    const unlocked = await settled('locked', stateOf('ok'));
    expect(unlocked.health?.reasons).toEqual([]);
  });

  it('the fleet view lists the switchers’ model with the one behind the newest firmware', async () => {
    // The previous test updated switcher A; the fleet view reads the same health records.
    const fleet = await eventually(
      async () => {
        const answer = await api<Fleet>('GET', '/api/fleet');
        expect(answer.status).toBe(200);
        const model = answer.body.models.find((m) => m.model === SWITCHER_MODEL);
        expect(model?.newestFirmware).toBe('1.05');
        return answer.body;
      },
      DEADLINE_MS,
      1000,
    );
    expect(fleet.models.find((m) => m.model === SWITCHER_MODEL)).toEqual({
      model: SWITCHER_MODEL,
      newestFirmware: '1.05',
      versions: [
        { firmware: '1.05', devices: 1 },
        { firmware: '1.04', devices: 1 },
      ],
      behind: [expect.objectContaining({ equipmentId: ids.switcherB, name: 'Switcher B', firmware: '1.04' })],
    });
    expect(fleet.rebooted).toContainEqual(expect.objectContaining({ equipmentId: ids.display }));
  });

  it('the consumables report lists the projector lamps with their hours', async () => {
    const report = await text('/api/reports/consumables.csv');
    expect(report.status).toBe(200);
    const lines = report.body.split('\r\n');
    const lamp = (equipment: string) =>
      lines.find((line) => line.includes(`,${equipment},`) && line.includes(',Lamp 1,'));
    expect(lamp('Hall projector')).toContain(',Lamp 1,1234,,ELPLP97,');
    expect(lamp('Worn projector')).toContain(`,Lamp 1,2950,${LAMP_RATED_HOURS},`);
  });
});
