import { uptimeCsvLine } from '@cm/contracts';
import { type UptimeCsvSqlRow, uptimeCsvLineOf, uptimeOf } from './uptime';

const row = (changes: Partial<UptimeCsvSqlRow>): UptimeCsvSqlRow => ({
  buildingName: 'Science Hall',
  roomName: 'S101',
  name: 'Projector',
  type: 'Projector',
  ipAddress: '127.0.0.10',
  status: 'active',
  lastUpdated: new Date('2026-11-20T08:30:00.125Z'),
  upSeconds: 2_500_000,
  downSeconds: 3_600.5,
  ...changes,
});

describe("the uptime CSV's line of a cursor row", () => {
  it("is the page's line, byte for byte", () => {
    for (const r of [
      row({}),
      row({ type: null, ipAddress: null, upSeconds: 0, downSeconds: 0, status: 'unknown' }),
      row({ buildingName: '=HYPERLINK("x")', roomName: '+1, "quoted"', name: '＠fullwidth', downSeconds: 0 }),
    ]) {
      expect(uptimeCsvLineOf(r)).toBe(uptimeCsvLine(uptimeOf(r)));
    }
  });
});
