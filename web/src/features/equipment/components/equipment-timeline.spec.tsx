import { type EquipmentHistory } from '@cm/contracts';
import { screen, within } from '@testing-library/react';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { EquipmentTimeline } from './equipment-timeline';

const id = '00000000-0000-4000-8000-000000000001';
const DAY = 86_400_000;
const to = Date.parse('2026-11-24T12:00:00Z');
const at = (daysAgo: number) => new Date(to - daysAgo * DAY).toISOString();

const history = (
  over: Partial<EquipmentHistory> = {},
  summary: Partial<EquipmentHistory['summary']> = {},
) => ({
  equipmentId: id,
  from: at(30),
  to: at(0),
  summary: {
    status: 'inactive',
    statusSince: at(1),
    lastCheckedAt: new Date(to - 5 * 60_000).toISOString(),
    lastRttMs: null,
    loss24h: { pings: 6, unanswered: 2, percent: 33.3 },
    uptime: { percent: 77.3, upHours: 479.5, downHours: 140.5 },
    ...summary,
  },
  spans: [
    { start: at(20), end: at(5), status: 'active' },
    { start: at(5), end: at(1), status: 'maintenance' },
    { start: at(1), end: at(0), status: 'inactive' },
  ],
  hoursFrom: at(7),
  hours: [],
  days: [],
  ...over,
});

const figures = async () => {
  const list = await screen.findByTestId('timeline-figures');
  return Object.fromEntries(
    within(list)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
};

describe(EquipmentTimeline.name, () => {
  it('shows the last check, round trip, loss and uptime, and a strip of the 30 days', async () => {
    const calls = fakeFetch({ status: 200, body: history() });
    renderWithApp(<EquipmentTimeline equipmentId={id} />);
    expect(await figures()).toEqual({
      'Last Checked': '5 min ago',
      'Last Round Trip': 'No answer',
      '24-Hour Loss': '33.3 % (2 of 6 pings)',
      // First recorded 20 days ago: the figure is of those days, and says so.
      Uptime: '77.3 % over 20 d',
    });
    expect(calls[0].url).toBe(`/api/equipment/${id}/history`);
    expect(screen.getByText('5 min ago')).toHaveAttribute(
      'title',
      new Date(to - 5 * 60_000).toLocaleString(),
    );

    const strip = screen.getByRole('list', { name: 'Status over the last 30 days' });
    const pieces = within(strip).getAllByRole('listitem');
    expect(pieces.map((p) => [p.dataset.status, p.style.width])).toEqual([
      ['none', `${(10 / 30) * 100}%`],
      ['active', '50%'],
      ['maintenance', `${(4 / 30) * 100}%`],
      ['inactive', `${(1 / 30) * 100}%`],
    ]);
    // Colour alone would not tell everyone: each run says what it was, and when.
    expect(pieces[3]).toHaveTextContent(/^Inactive from .+ to .+ \(1 d\)$/);
    expect(pieces[3].getAttribute('title')).toBe(pieces[3].textContent);
    expect(pieces[1].className).toContain('bg-green-500');
    expect(pieces[3].className).toContain('bg-red-500');
  });

  it('says how long a device has been watched when it is less than the 30 days', async () => {
    const justAdded = new Date(to - 3 * 60_000).toISOString();
    fakeFetch({
      status: 200,
      body: history(
        { spans: [{ start: justAdded, end: at(0), status: 'active' }] },
        { uptime: { percent: 85.9, upHours: 0.04, downHours: 0.01 } },
      ),
    });
    renderWithApp(<EquipmentTimeline equipmentId={id} />);
    expect((await figures()).Uptime).toBe('85.9 % over 3 min');
  });

  it('calls it the 30-day uptime once watched the whole window', async () => {
    fakeFetch({
      status: 200,
      body: history({
        spans: [
          { start: at(30), end: at(1), status: 'active' },
          { start: at(1), end: at(0), status: 'inactive' },
        ],
      }),
    });
    renderWithApp(<EquipmentTimeline equipmentId={id} />);
    expect((await figures())['30-Day Uptime']).toBe('77.3 %');
  });

  it('says what there is not yet, for equipment never checked', async () => {
    fakeFetch({
      status: 200,
      body: history(
        { spans: [] },
        {
          lastCheckedAt: null,
          lastRttMs: null,
          loss24h: { pings: 0, unanswered: 0, percent: null },
          uptime: { percent: null, upHours: 0, downHours: 0 },
        },
      ),
    });
    renderWithApp(<EquipmentTimeline equipmentId={id} />);
    expect(await figures()).toEqual({
      'Last Checked': 'Not checked yet',
      'Last Round Trip': 'Not checked yet',
      '24-Hour Loss': 'No checks in the last 24 hours',
      '30-Day Uptime': 'No uptime recorded yet',
    });
    expect(screen.getByText('No history yet')).toBeInTheDocument();
  });

  it('shows that it is loading, then why it could not load, with a way to try again', async () => {
    fakeFetch({
      status: 404,
      body: { code: 'INVENTORY.EQUIPMENT_NOT_FOUND', message: 'No equipment with id x' },
    });
    renderWithApp(<EquipmentTimeline equipmentId={id} />);
    expect(screen.getByLabelText('Loading history')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the history: No equipment with id x',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
