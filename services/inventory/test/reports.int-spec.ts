import { type Equipment, ErrorCode, messages, type ReportPage } from '@cm/contracts';
import { failureOf, inventoryUnderTest, setHistory } from './support';

const HOUR = 3_600_000;

describe('inventory uptime report', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  const asOf = new Date();
  const hoursAgo = (h: number) => new Date(asOf.getTime() - h * HOUR);
  let steady: Equipment, flappy: Equipment, serviced: Equipment, fresh: Equipment;

  /** Replaces an equipment's status history with checks at the given times (oldest first). */
  const historyFor = (e: Equipment, checks: [status: string, hoursAgo: number][]) =>
    setHistory(
      inventory.sut,
      e.id,
      checks.map(([status, h]) => [status, hoursAgo(h)]),
    );

  beforeAll(async () => {
    const hall = await make.building({ name: 'Hall' });
    await make.building({ name: 'Empty' });
    const lab = await make.room(hall.id, { name: 'Lab' });
    steady = await make.equipment(lab.id, { name: 'Steady', type: 'Projector', ipAddress: '10.0.0.1' });
    flappy = await make.equipment(lab.id, { name: 'Flappy', status: 'inactive' });
    serviced = await make.equipment(lab.id, { name: 'Serviced', status: 'maintenance' });
    fresh = await make.equipment(lab.id, { name: 'Fresh' });
    await historyFor(steady, [['active', 900]]);
    // Active from before the window until 360 h ago, down 240 h (partial counts as down), then up.
    await historyFor(flappy, [
      ['active', 800],
      ['inactive', 360],
      ['partial', 200],
      ['active', 120],
      ['inactive', 0],
    ]);
    await historyFor(serviced, [['maintenance', 1000]]);
    await historyFor(fresh, [['active', 10]]);
  });

  const pages = async (limit: number) => {
    const out: ReportPage[] = [];
    let after: string | undefined;
    do {
      const page = await send(messages.inventory.report, {
        after,
        limit,
        asOf: asOf.toISOString(),
      });
      out.push(page);
      after = page.nextCursor ?? undefined;
    } while (after);
    return out;
  };

  it('counts buildings, equipment, online (active) and offline (inactive), and the share online', async () => {
    const [first, ...rest] = await pages(1000);
    expect(rest).toEqual([]);
    expect(first.summary).toEqual({
      buildings: 2,
      totalEquipment: 4,
      online: 2,
      offline: 1,
      overallUptimePercent: 50,
      generatedAt: asOf.toISOString(),
    });
  });

  it('weighs each status by the time it held within the last 720 hours', async () => {
    const items = (await pages(1000)).flatMap((p) => p.items);
    const byName = Object.fromEntries(items.map((i) => [i.name, i]));
    expect(byName.Steady).toMatchObject({
      buildingName: 'Hall',
      roomName: 'Lab',
      type: 'Projector',
      ipAddress: '10.0.0.1',
      status: 'active',
      uptimePercent: 100,
      uptimeHours: 720,
      downtimeHours: 0,
    });
    expect(byName.Flappy).toMatchObject({ uptimeHours: 480, downtimeHours: 240, uptimePercent: 66.7 });
    expect(byName.Serviced).toMatchObject({ uptimeHours: 0, downtimeHours: 0, uptimePercent: null });
    expect(byName.Fresh).toMatchObject({ uptimeHours: 10, downtimeHours: 0, uptimePercent: 100 });
    expect(Date.parse(byName.Fresh.lastUpdated)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('pages by id with the summary on the first page only, and covers every equipment once', async () => {
    const all = await pages(3);
    expect(all).toHaveLength(2);
    expect(all[0].summary).not.toBeNull();
    expect(all[1].summary).toBeNull();
    const ids = all.flatMap((p) => p.items.map((i) => i.equipmentId));
    expect(ids.sort()).toEqual([steady, flappy, serviced, fresh].map((e) => e.id).sort());
  });

  it('refuses a page larger than the limit', async () => {
    expect(await failureOf(send(messages.inventory.report, { limit: 100_000 }))).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
    });
  });
});
