import { type BuildingListItem, inventoryCsvColumns } from '@cm/contracts';
import { type Page } from 'playwright-core';
import {
  expectToast,
  openSharedWebSystem,
  screenshot,
  signedInPhonePerTest,
  type WebSystem,
} from './browser';

const header = inventoryCsvColumns.join(',');
const at = (column: (typeof inventoryCsvColumns)[number]) => inventoryCsvColumns.indexOf(column);

/** A line naming building, room (type, floor) and, when given, equipment. */
const line = (building: string, room = '', type = '', floor = '', equipment = '') => {
  const cells: string[] = inventoryCsvColumns.map(() => '');
  cells[at('building_name')] = building;
  cells[at('room_name')] = room;
  cells[at('room_type')] = type;
  cells[at('room_floor')] = floor;
  cells[at('equipment_name')] = equipment;
  return cells.join(',');
};

const csv = (lines: string[]) => ({
  name: 'campus.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from([header, ...lines].join('\n')),
});

/** Settings → Import / export at phone size: a file previewed, confirmed, and its rooms in their buildings. */
describe('web app: importing the inventory from a CSV', () => {
  let web: WebSystem;
  let page: Page;

  beforeAll(async () => {
    web = await openSharedWebSystem();
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  const openTab = async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Import / export' }).click();
  };
  const counts = (scope: string, kind: string) =>
    page.getByRole('region', { name: scope }).getByTestId(`import-counts-${kind}`).innerText();

  it('shows the errors of a file and imports nothing from it', async () => {
    await openTab();
    await page
      .getByLabel('Choose a CSV file')
      .setInputFiles(
        csv([line('Import Hall', 'IH 1', 'Lab', '1'), line('Import Hall', 'IH 2', 'Office', '1')]),
      );
    const errors = page.getByTestId('import-errors');
    await errors.waitFor();
    expect(await errors.innerText()).toContain(
      'Line 2, column room_type: "Lab" is not a room type. Use one of:',
    );
    expect(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    const buildings = await web.api<BuildingListItem[]>('GET', '/api/buildings');
    expect(buildings.find((b) => b.name === 'Import Hall')).toBeUndefined();
  });

  it('previews a file, imports it on confirmation, and the rooms are in their buildings', async () => {
    await openTab();
    await page
      .getByLabel('Choose a CSV file')
      .setInputFiles(
        csv([
          line('Import Hall', 'IH 101', 'Classroom', '1', 'Projector'),
          line('Import Hall', 'IH 102', 'Computer Lab', '1'),
          line('Import Annex', 'IA 7', 'Office', 'LL'),
        ]),
      );
    await page.getByRole('region', { name: 'Import preview' }).waitFor();
    expect(await counts('Import preview', 'buildings')).toMatch(/^Buildings\s+2\s+0\s+0$/);
    expect(await counts('Import preview', 'rooms')).toMatch(/^Rooms\s+3\s+0\s+0$/);
    expect(await counts('Import preview', 'equipment')).toMatch(/^Equipment\s+1\s+0\s+0$/);
    await screenshot(page, 'import-preview');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expectToast(page, 'Success', 'Inventory imported successfully');
    expect(await counts('Import result', 'rooms')).toMatch(/^Rooms\s+3\s+0\s+0$/);

    await page.goto('/buildings');
    const card = (name: string) =>
      page.getByTestId('building-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
    await card('Import Hall').getByText('2 Rooms', { exact: true }).waitFor();
    await card('Import Annex').getByText('1 Room', { exact: true }).waitFor();
    await card('Import Hall').getByRole('link').first().click();
    await page.getByRole('heading', { name: 'IH 101', level: 3 }).waitFor();
    await page.getByRole('heading', { name: 'IH 102', level: 3 }).waitFor();
    await screenshot(page, 'import-rooms-in-building');
  });
});
