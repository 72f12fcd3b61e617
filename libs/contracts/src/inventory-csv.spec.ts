import { csvCell, csvCellValue } from './csv';
import { checkImportHeader, inventoryCsvColumns } from './inventory-csv';
import { parseImportLine } from './inventory-csv-line';

const columns = [...inventoryCsvColumns];
const cells = (given: Partial<Record<(typeof inventoryCsvColumns)[number], string>>) =>
  columns.map((c) => given[c] ?? '');

describe(csvCellValue.name, () => {
  it.each(['=SUM(A1)', '+1', '-3 dB pad', '@cmd', '\tindented', "'quoted already", 'plain'])(
    'reads back %j as it was written',
    (value) => {
      const written = csvCell(value);
      const unquoted = written.startsWith('"') ? written.slice(1, -1).replace(/""/g, '"') : written;
      expect(csvCellValue(unquoted)).toBe(value);
    },
  );
});

describe(checkImportHeader.name, () => {
  it('takes the columns in any order and any letter case', () => {
    expect(checkImportHeader(['Room_Name', ' building_name '])).toEqual({
      columns: ['room_name', 'building_name'],
    });
  });

  it('names what is wrong with a header', () => {
    expect(checkImportHeader(['Science Hall', 'S101'])).toMatchObject({
      error: expect.stringContaining('The first line must be the header'),
    });
    expect(checkImportHeader(['building_name', 'colour', 'size'])).toMatchObject({
      error: expect.stringMatching(/^Unknown columns "colour", "size"\. Remove them/),
    });
    expect(checkImportHeader(['building_name', 'room_name', 'room_name'])).toEqual({
      error: 'The column "room_name" is in the header twice. Keep one of them.',
    });
    expect(checkImportHeader(['room_name'])).toEqual({
      error: 'The header has no building_name column; every line names its building.',
    });
  });
});

describe(parseImportLine.name, () => {
  it("reads an equipment's probe type in any letter case and its port, and says what is wrong with them", () => {
    const line = (probe: string, port: string) =>
      parseImportLine(
        columns,
        cells({
          building_name: 'Hall',
          room_name: 'R1',
          equipment_name: 'Projector',
          equipment_probe_type: probe,
          equipment_probe_port: port,
        }),
        3,
      );
    expect(line('PJLink', '4353').row?.equipment).toMatchObject({ probeType: 'pjlink', probePort: 4353 });
    expect(line('telnet', '70000').errors.map((e) => e.message)).toEqual([
      'Line 3, column equipment_probe_type: "telnet" is not a probe. Use one of: icmp, pjlink, snmp, qsys, extron, tcp, http, or leave it empty.',
      'Line 3, column equipment_probe_port: "70000" is not a port. Give a whole number from 1 to 65535, or leave it empty.',
    ]);
  });

  it('reads a line into its building, room and equipment, empty cells as null', () => {
    const { row, errors } = parseImportLine(
      columns,
      cells({
        building_name: ' Science Hall ',
        room_name: 'S101',
        room_type: 'science lab',
        room_floor: "'-1",
        room_capacity: '24',
        room_ada_accessible: 'no',
        equipment_name: 'Projector',
        equipment_ip_address: '10.0.0.5',
        equipment_status: 'Maintenance',
      }),
      7,
    );
    expect(errors).toEqual([]);
    expect(row).toMatchObject({
      line: 7,
      building: { name: 'Science Hall', description: null },
      room: {
        name: 'S101',
        type: 'Science Lab',
        floor: '-1',
        capacity: 24,
        isAdaAccessible: 0,
        roomSize: null,
      },
      equipment: { name: 'Projector', ipAddress: '10.0.0.5', status: 'maintenance', notes: null },
    });
  });

  it('leaves out a field whose column the file does not have', () => {
    const { row } = parseImportLine(['building_name', 'room_name'], ['Library', 'L1'], 2);
    expect(row?.room).toEqual({ name: 'L1' });
  });

  it('skips an empty line', () => {
    expect(parseImportLine(columns, cells({}), 3)).toEqual({ row: null, errors: [] });
  });

  it('says for each bad cell where it is and what to write instead', () => {
    const { row, errors } = parseImportLine(
      columns,
      cells({
        building_name: 'Science Hall',
        room_name: 'S101',
        room_capacity: '-2',
        room_ada_accessible: 'maybe',
        equipment_name: 'Camera',
        equipment_status: 'on',
      }),
      14,
    );
    expect(row).toBeNull();
    expect(errors.map((e) => e.message)).toEqual([
      `Line 14, column room_capacity: "-2" is not a capacity. Give the room's seats as a whole number, 0 or more.`,
      'Line 14, column room_ada_accessible: "maybe" is not yes or no. Write 1 (accessible) or 0 (not accessible).',
      'Line 14, column equipment_status: "on" is not an equipment status. Use one of: active, inactive, maintenance, partial, or leave it empty.',
    ]);
  });

  it('refuses equipment without a room, and cells past the header', () => {
    expect(
      parseImportLine(columns, cells({ building_name: 'Library', equipment_name: 'Kiosk' }), 4).errors,
    ).toEqual([
      {
        line: 4,
        column: 'room_name',
        message:
          'Line 4, column room_name: The line has equipment_name but no room. Name the room it belongs to.',
      },
    ]);
    expect(parseImportLine(['building_name'], ['Library', 'extra'], 5).errors[0].message).toBe(
      'Line 5: The line has 2 cells but the header names 1 columns. Remove the extra cells or add their column to the header.',
    );
  });
});
