import { type ScheduleSource } from '@cm/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithApp } from '../../../test/render';
import { ClassSchedulesTab } from './class-schedules-tab';

const source = (over: Partial<ScheduleSource>): ScheduleSource => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Hall A feed',
  roomId: null,
  buildingId: '00000000-0000-4000-8000-0000000000b1',
  placeName: 'Hall A',
  url: 'https://calendar.example.edu/hall-a.ics',
  kind: 'feed',
  fileName: null,
  lastGoodAt: '2026-03-01T08:00:00.000Z',
  lastCheckedAt: '2026-03-01T09:00:00.000Z',
  failingSince: '2026-03-01T08:15:00.000Z',
  lastError: 'The feed answered HTTP 503: the calendar server has a problem; the last good schedule is kept',
  problems: [],
  occurrences: 12,
  unmatched: 0,
  createdAt: '2026-02-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
  ...over,
});
const file = source({
  id: '00000000-0000-4000-8000-000000000002',
  name: 'Room 101 timetable',
  kind: 'file',
  url: null,
  placeName: 'Hall A · 101',
  failingSince: null,
  lastError: null,
  problems: [{ line: 37, message: 'It has no DTSTART' }],
});

/** Answers by address, whatever order the tab's queries go in. */
function serve(answers: Record<string, { status: number; body: unknown }>) {
  const calls: string[] = [];
  global.fetch = jest.fn(async (url: string) => {
    calls.push(url);
    const key = Object.keys(answers).find((k) => url.startsWith(k));
    const answer = key ? answers[key] : { status: 500, body: { message: 'unexpected' } };
    const text = JSON.stringify(answer.body);
    return { ok: answer.status < 300, status: answer.status, statusText: '', text: async () => text };
  }) as unknown as typeof fetch;
  return calls;
}

describe(ClassSchedulesTab.name, () => {
  it("shows each schedule's state: a failing feed since when and why, an event that could not be read by line", async () => {
    serve({
      '/api/schedule-sources': { status: 200, body: [source({}), file] },
      '/api/schedule-locations': { status: 200, body: [] },
      '/api/buildings': { status: 200, body: [] },
    });
    renderWithApp(<ClassSchedulesTab />);
    expect(await screen.findByText(/^Failing since/)).toBeInTheDocument();
    expect(screen.getByText(/The feed answered HTTP 503/)).toHaveTextContent(/is still used\.$/);
    expect(screen.getByText('Line 37: It has no DTSTART')).toBeInTheDocument();
    expect(screen.getByText('Hall A · 101')).toBeInTheDocument();
  });

  it('lists by line what is wrong with an uploaded file', async () => {
    serve({
      '/api/schedule-sources/00000000-0000-4000-8000-000000000002/file': {
        status: 422,
        body: {
          code: 'INVENTORY.SCHEDULE_FILE_INVALID',
          message: 'The CSV file has errors',
          errors: [{ path: 'line 3', message: 'Date "2026-02-31" is not a date (2026-03-02 or 3/2/2026)' }],
        },
      },
      '/api/schedule-sources': { status: 200, body: [file] },
      '/api/schedule-locations': { status: 200, body: [] },
      '/api/buildings': { status: 200, body: [] },
    });
    renderWithApp(<ClassSchedulesTab />);
    const input = await screen.findByLabelText('Upload a timetable (.ics or CSV)');
    fireEvent.change(input, { target: { files: [new File(['x'], 'timetable.csv')] } });
    expect(
      await screen.findByText('Line 3: Date "2026-02-31" is not a date (2026-03-02 or 3/2/2026)'),
    ).toBeInTheDocument();
  });
});
