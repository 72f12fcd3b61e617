import { csvCell } from './csv';
import { type EquipmentUptime, uptimeCsv, uptimeCsvFileName } from './reports';

const row = (over: Partial<EquipmentUptime> = {}): EquipmentUptime => ({
  equipmentId: '00000000-0000-4000-8000-000000000001',
  buildingId: '00000000-0000-4000-8000-000000000002',
  buildingName: 'Science Hall',
  roomId: '00000000-0000-4000-8000-000000000003',
  roomName: '101',
  name: 'Projector',
  type: 'Display',
  ipAddress: '10.0.0.5',
  status: 'active',
  uptimePercent: 97.25,
  uptimeHours: 700.04,
  downtimeHours: 19.96,
  lastUpdated: '2026-11-23T10:00:00.000Z',
  ...over,
});

describe(uptimeCsv.name, () => {
  it('writes the spec columns, then one line per equipment', () => {
    expect(uptimeCsv([row()]).split('\r\n')).toEqual([
      'Building,Room,Equipment Name,Equipment Type,IP Address,Status,Uptime %,Uptime Hours,Downtime Hours,Last Updated',
      'Science Hall,101,Projector,Display,10.0.0.5,active,97.3,700.0,20.0,2026-11-23T10:00:00.000Z',
      '',
    ]);
  });

  it('writes N/A for a missing address and for uptime without history, and an empty type', () => {
    const [, line] = uptimeCsv([row({ ipAddress: null, type: null, uptimePercent: null })]).split('\r\n');
    expect(line).toBe('Science Hall,101,Projector,,N/A,active,N/A,700.0,20.0,2026-11-23T10:00:00.000Z');
  });

  it('quotes commas, quotes and line breaks, and defuses spreadsheet formulas', () => {
    expect(csvCell('Hall A, east')).toBe('"Hall A, east"');
    expect(csvCell('The "big" room')).toBe('"The ""big"" room"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('@cmd')).toBe("'@cmd");
  });
});

describe(uptimeCsvFileName.name, () => {
  it('names the file after the local date', () => {
    expect(uptimeCsvFileName(new Date(2026, 0, 5, 23, 59))).toBe('equipment-uptime-report-2026-01-05.csv');
  });
});
