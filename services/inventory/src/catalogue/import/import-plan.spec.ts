import { IMPORT_CHANGES_BYTES, type ImportRow } from '@cm/contracts';
import { changesOf, planImport } from './import-plan';
import { type AddressRules, type CurrentInventory, type ImportPlan } from './import-records';

const rules: AddressRules = {
  problem: (ip) => (ip.startsWith('8.') ? `${ip} is outside the networks the monitor may ping` : null),
  count: (ip) => (ip.includes('-') ? 3 : 1),
  max: 5,
};

const empty: CurrentInventory = { buildings: [], rooms: [], equipment: [] };

const hall = { id: 'b1', name: 'Science Hall', description: 'North', imageUrl: null };
const s101 = {
  id: 'r1',
  buildingId: 'b1',
  name: 'S101',
  type: 'Classroom',
  floor: '1',
  capacity: 30,
  roomSize: '30 x 40',
  isAdaAccessible: 1 as const,
  imageUrl: null,
  wiringDiagramUrl: null,
  seatingLayoutUrl: null,
};
const projector = {
  id: 'e1',
  roomId: 'r1',
  name: 'Projector',
  model: null,
  serialNumber: 'PJ-1',
  ipAddress: '10.0.0.5',
  status: 'inactive',
  notes: null,
  imageUrl: null,
  type: null,
  probeType: 'pjlink' as const,
  probePort: null,
};
const campus: CurrentInventory = { buildings: [hall], rooms: [s101], equipment: [projector] };

const row = (
  line: number,
  room?: Partial<NonNullable<ImportRow['room']>>,
  equipment?: Partial<NonNullable<ImportRow['equipment']>>,
): ImportRow => ({
  line,
  building: { name: 'Science Hall' },
  room: room ? { name: 'S101', ...room } : null,
  equipment: equipment ? { name: 'Projector', ...equipment } : null,
});

describe(planImport.name, () => {
  it("keeps a probe the file has no column for, and gives new equipment its type's", () => {
    const plan = planImport(
      [
        row(2, {}, { notes: 'ceiling' }),
        row(3, {}, { name: 'Projector 2', type: 'Projector', ipAddress: '10.0.0.6' }),
      ],
      campus,
      rules,
    );
    expect(plan.equipment.update).toEqual([{ ...projector, notes: 'ceiling' }]);
    expect(plan.equipment.create).toEqual([
      expect.objectContaining({ probeType: 'pjlink', probePort: null }),
    ]);
  });

  it('takes the probe type and port of the file, and refuses a deep probe on a range or a port without a probe', () => {
    const plan = planImport(
      [
        row(2, {}, { probeType: 'tcp', probePort: 41794 }),
        row(3, {}, { name: 'Panels', ipAddress: '10.0.0.20-23', probeType: 'snmp' }),
        row(4, {}, { name: 'Camera', probeType: null, probePort: 80 }),
      ],
      campus,
      rules,
    );
    expect(plan.equipment.update).toEqual([{ ...projector, probeType: 'tcp', probePort: 41794 }]);
    expect(plan.errors).toEqual([
      expect.objectContaining({ line: 3, column: 'equipment_probe_type' }),
      expect.objectContaining({ line: 4, column: 'equipment_probe_port' }),
    ]);
  });

  it('keeps what a building or room line leaves empty, and counts them unchanged', () => {
    const plan = planImport([row(2, { type: null, roomSize: null })], campus, rules);
    expect(plan.errors).toEqual([]);
    expect(plan.buildings.unchanged).toBe(1);
    expect(plan.rooms.unchanged).toBe(1);
  });

  it('matches equipment by serial number in another room, moves it, and leaves its status alone', () => {
    const plan = planImport(
      [
        row(
          2,
          { name: 'S102', type: 'Office', floor: '1' },
          { name: 'Beamer', serialNumber: 'PJ-1', status: 'active' },
        ),
      ],
      campus,
      rules,
    );
    expect(plan.rooms.create).toHaveLength(1);
    expect(plan.equipment.update).toEqual([
      { ...projector, name: 'Beamer', roomId: plan.rooms.create[0].id, ipAddress: '10.0.0.5' },
    ]);
  });

  it('refuses two lines that give a room different values, naming both lines', () => {
    const plan = planImport([row(2, { capacity: 30 }), row(3, { capacity: 24 })], campus, rules);
    expect(plan.errors.map((e) => e.message)).toEqual([
      'Line 3, column room_capacity: "24" differs from "30" on line 2 for the same room "S101" of "Science Hall". Give its value once, or the same on every line.',
    ]);
  });

  it('refuses a name that matches two records, and an address the monitor may not ping', () => {
    const twice = { ...campus, buildings: [hall, { ...hall, id: 'b2' }] };
    expect(planImport([row(2)], twice, rules).errors[0].message).toBe(
      'Line 2, column building_name: 2 buildings are named "Science Hall". Rename all but one of them in the app so that the file names one building.',
    );
    expect(
      planImport([row(4, {}, { serialNumber: 'X', ipAddress: '8.8.8.8' })], campus, rules).errors,
    ).toEqual([
      {
        line: 4,
        column: 'equipment_ip_address',
        message: 'Line 4, column equipment_ip_address: 8.8.8.8 is outside the networks the monitor may ping',
      },
    ]);
  });

  it('refuses a file that would take the campus past its monitored addresses', () => {
    const rows = ['10.0.1.1-3', '10.0.2.1-3'].map((ip, i) =>
      row(i + 2, { name: `R${i}`, type: 'Office', floor: '1' }, { name: `Camera ${i}`, ipAddress: ip }),
    );
    const plan = planImport(rows, campus, rules);
    expect(plan.errors).toEqual([
      expect.objectContaining({
        line: null,
        message: expect.stringContaining(
          'After this import the campus would have 7 monitored addresses; at most 5',
        ),
      }),
    ]);
  });

  it('creates with the defaults of the forms', () => {
    const plan = planImport(
      [row(2, { name: 'New', type: 'Office', floor: '2' }, { name: 'Panel' })],
      empty,
      rules,
    );
    expect(plan.rooms.create[0]).toMatchObject({ capacity: 0, isAdaAccessible: 1, roomSize: null });
    expect(plan.equipment.create[0]).toMatchObject({ status: 'active', serialNumber: null });
  });
});

describe(changesOf.name, () => {
  const plan = (buildings: (typeof hall)[], update: (typeof hall)[] = []): ImportPlan => ({
    buildings: { create: buildings, update, unchanged: 0 },
    rooms: { create: [], update: [], unchanged: 0 },
    equipment: { create: [], update: [], unchanged: 0 },
    errors: [],
  });

  it('lists an update by the fields that changed, before and after', () => {
    expect(changesOf(plan([], [{ ...hall, description: 'South' }]), campus)).toEqual({
      changes: [
        {
          entityType: 'building',
          action: 'update',
          id: 'b1',
          before: { description: 'North' },
          after: { description: 'South' },
        },
      ],
      changesNotListed: 0,
    });
  });

  it('lists what fits in a NATS reply and counts the rest', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      ...hall,
      id: `b${i}`,
      description: 'x'.repeat(200),
    }));
    const { changes, changesNotListed } = changesOf(plan(many), empty);
    expect(changes.length).toBeGreaterThan(1000);
    expect(changes.length + changesNotListed).toBe(5000);
    expect(JSON.stringify(changes).length).toBeLessThanOrEqual(IMPORT_CHANGES_BYTES + changes.length);
  });
});
