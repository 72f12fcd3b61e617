import { randomUUID } from 'node:crypto';
import { type Building, type ReadinessSummarySettings, type Room, type ScheduleSource } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { expectToast, onSharedSystem, type WebSystem } from './browser';
import { calendarFile } from './support/calendar';

const HOUR = 3_600_000;

/**
 * Issue 38 at 390 × 844: Settings → Class schedules (a building's timetable uploaded as a file,
 * a location without a room mapped, renamed through Edit), the rooms list's next class and its
 * order, the Before class screen (soonest first) and the morning summary's settings.
 */
describe('web app: class schedules and the Before class screen', () => {
  let web: WebSystem;
  let page: Page;
  let building: Building;
  let lectureRoom: Room;
  let theatre: Room;
  const suffix = randomUUID().slice(0, 6);
  const schedule = `Timetable ${suffix}`;
  const unmatched = `Lecture Theatre ${suffix}`;
  // Whole five minutes, two and three hours on: inside the Before class screen's twelve hours.
  const soon = Math.ceil((Date.now() + 2 * HOUR) / 300_000) * 300_000;
  // A class in the lecture room now, until an hour or so from now.
  const begun = Math.floor((Date.now() - 20 * 60_000) / 300_000) * 300_000;

  onSharedSystem(
    (w) => (web = w),
    (p) => (page = p),
  );

  beforeAll(async () => {
    building = await web.api<Building>('POST', '/api/buildings', { name: `Schedule Hall ${suffix}` });
    lectureRoom = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: `S${suffix}-101`,
      type: 'Classroom',
      floor: '1',
    });
    theatre = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: `S${suffix}-001`,
      type: 'Classroom',
      floor: '0',
    });
  });

  const timetable = () =>
    Buffer.from(
      calendarFile([
        {
          uid: `law-${suffix}@e2e`,
          title: 'LAW 300',
          start: begun,
          end: soon - HOUR,
          location: lectureRoom.name,
        },
        {
          uid: `econ-${suffix}@e2e`,
          title: 'ECON 101',
          start: soon,
          end: soon + 75 * 60_000,
          location: lectureRoom.name,
        },
        {
          uid: `phys-${suffix}@e2e`,
          title: 'PHYS 210',
          start: soon + HOUR,
          end: soon + 2 * HOUR,
          location: unmatched,
        },
        // Last in the file, first of the classes ahead: Before class lists by start, not as read.
        {
          uid: `hist-${suffix}@e2e`,
          title: 'HIST 120',
          start: soon - 45 * 60_000,
          end: soon - 15 * 60_000,
          location: lectureRoom.name,
        },
      ]),
    );

  it('adds a building’s timetable by file, maps the location without a room, and the rooms list shows and sorts by next class', async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Class schedules' }).click();
    await page.getByLabel('Name').fill(schedule);
    await page.getByLabel('Building').selectOption({ label: building.name });
    await page.getByRole('button', { name: 'Add schedule' }).click();
    await expectToast(page, 'Success', 'Class schedule added');

    const card = page.getByRole('listitem').filter({ hasText: schedule });
    await card.getByText('No file yet').waitFor();
    await card
      .getByLabel('Upload a timetable (.ics or CSV)')
      .setInputFiles({ name: 'timetable.ics', mimeType: 'text/calendar', buffer: timetable() });
    await card.getByText('4 classes in the next 14 days, 1 without a room').waitFor();

    const row = page.getByRole('listitem').filter({ hasText: unmatched });
    await row.getByLabel(`Room for ${unmatched}`).selectOption({ label: theatre.name });
    await row.getByRole('button', { name: 'Map' }).click();
    await card.getByText(/^4 classes in the next 14 days$/).waitFor();
    await row.waitFor({ state: 'detached' });

    await page.goto(`/buildings/${building.id}/rooms`);
    const cardOf = (room: Room) =>
      page.getByTestId('room-card').filter({ has: page.getByRole('heading', { name: room.name }) });
    const nextClass = /^Next class (\w{3} \d{1,2} \w{3} )?\d\d:\d\d–\d\d:\d\d, PHYS 210$/;
    const inUse = /^In use until \d\d:\d\d$/;
    // The lecture room's LAW 300 has begun; HIST 120 and ECON 101 come after it.
    expect(await cardOf(lectureRoom).getByTestId('next-class').innerText()).toMatch(inUse);
    expect(await cardOf(theatre).getByTestId('next-class').innerText()).toMatch(nextClass);
    const order = () => page.getByTestId('room-card').getByRole('heading').allInnerTexts();
    // By floor: floor 0's theatre first.
    expect(await order()).toEqual([theatre.name, lectureRoom.name]);
    await page.getByRole('button', { name: 'By next class' }).click();
    await page.getByRole('heading', { name: 'By next class' }).waitFor();
    expect(await order()).toEqual([lectureRoom.name, theatre.name]);
    expect(await page.getByRole('button', { name: 'By next class' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    // Each room's own screen says the same, from the room's schedule.
    for (const [room, line] of [
      [lectureRoom, inUse],
      [theatre, nextClass],
    ] as const) {
      await page.goto(`/rooms/${room.id}`);
      await page.getByRole('heading', { name: room.name }).first().waitFor();
      await page.getByTestId('next-class').waitFor();
      expect(await page.getByTestId('next-class').innerText()).toMatch(line);
    }
  });

  it('lists the classes ahead on Before class, and an administrator sets the morning summary there', async () => {
    await page.goto('/before-class');
    const classes = page.getByRole('list', { name: 'Classes' });
    const econ = classes
      .getByRole('listitem')
      .filter({ hasText: 'ECON 101' })
      .filter({ hasText: building.name });
    const phys = classes
      .getByRole('listitem')
      .filter({ hasText: 'PHYS 210' })
      .filter({ hasText: building.name });
    await econ.waitFor();
    // This test's classes among whatever else the shared system holds, soonest first: not by room
    // (the theatre's name sorts first), title, or the file's order (HIST 120 last). LAW 300 has
    // begun, so it is not ahead.
    const ours = await classes.getByRole('listitem').filter({ hasText: building.name }).allInnerTexts();
    const titles = ['LAW 300', 'HIST 120', 'ECON 101', 'PHYS 210'];
    expect(ours.map((text) => titles.find((title) => text.includes(title)))).toEqual([
      'HIST 120',
      'ECON 101',
      'PHYS 210',
    ]);
    expect(await econ.getByRole('link').innerText()).toBe(`${lectureRoom.name}, ${building.name}`);
    expect(await econ.innerText()).toContain('Not checked');
    expect(await phys.getByRole('link').innerText()).toBe(`${theatre.name}, ${building.name}`);

    const summary = page.getByRole('form', { name: 'Morning summary' });
    await summary.getByLabel('Time', { exact: true }).fill('07:00');
    await summary.getByLabel('Time zone').fill('America/New_York');
    await summary.getByRole('button', { name: 'Save morning summary' }).click();
    await expectToast(page, 'Morning summary saved', 'Each day at 07:00 (America/New_York).');
    expect(await web.api<ReadinessSummarySettings>('GET', '/api/readiness/summary')).toMatchObject({
      time: '07:00',
      timeZone: 'America/New_York',
    });
  });

  it('renames the timetable through its Edit action; it keeps its building, file and classes', async () => {
    const renamed = `Spring term ${suffix}`;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Class schedules' }).click();
    const edit = page.getByRole('button', { name: `Edit ${schedule}`, exact: true });
    await edit.click();
    const dialog = page.getByRole('dialog', { name: 'Edit Class Schedule' });
    await dialog.getByText(`Building: ${building.name}`).waitFor();
    await dialog.getByLabel('Name').fill(renamed);
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    await expectToast(page, 'Success', 'Class schedule saved');
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByRole('listitem').filter({ hasText: renamed });
    await card.getByText(/^4 classes in the next 14 days$/).waitFor();
    expect(await card.getByRole('button', { name: `Edit ${renamed}`, exact: true }).count()).toBe(1);
    expect(await page.getByRole('listitem').filter({ hasText: schedule }).count()).toBe(0);
    const sources = await web.api<ScheduleSource[]>('GET', '/api/schedule-sources');
    expect(sources.filter((s) => s.buildingId === building.id)).toEqual([
      expect.objectContaining({ name: renamed, roomId: null, url: null, kind: 'file', occurrences: 4 }),
    ]);
  });
});
