import { type ScheduleSource } from '@cm/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { renderWithApp } from '../../../test/render';
import { ClassSchedulesTab } from './class-schedules-tab';

const buildingId = '00000000-0000-4000-8000-0000000000b1';
const roomId = '00000000-0000-4000-8000-0000000000c1';
const source = (over: Partial<ScheduleSource>): ScheduleSource => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Hall A feed',
  roomId: null,
  buildingId,
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
  roomId,
  buildingId: null,
  placeName: 'Hall A · 101',
  failingSince: null,
  lastError: null,
  problems: [{ line: 37, message: 'It has no DTSTART' }],
});

const buildings = {
  status: 200,
  body: [
    {
      id: buildingId,
      name: 'Hall A',
      description: null,
      imageUrl: null,
      version: 1,
      roomCount: 1,
      statusCounts: { active: 0, inactive: 0, partial: 0, maintenance: 0 },
    },
  ],
};
type Answer = { status: number; body?: unknown };

/**
 * Answers by method and address ("PUT /api/…", listed before a bare "/api/…" that would match it
 * too), whatever order the tab's queries go in; a function answers when the test lets it.
 */
function serve(answers: Record<string, Answer | (() => Promise<Answer>)>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  global.fetch = jest.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
    const key = Object.keys(answers).find((k) => `${method} ${url}`.startsWith(k) || url.startsWith(k));
    const given = key ? answers[key] : { status: 500, body: { message: 'unexpected' } };
    const answer = typeof given === 'function' ? await given() : given;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return { ok: answer.status < 300, status: answer.status, statusText: '', text: async () => text };
  }) as unknown as typeof fetch;
  return calls;
}

/** Opens the edit dialog of the schedule named `name` and replaces what its fields hold. */
async function edit(name: string, values: { name?: string; url?: string }) {
  await userEvent.click(await screen.findByRole('button', { name: `Edit ${name}` }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Class Schedule' });
  for (const [label, value] of [
    ['Name', values.name],
    ['Feed URL', values.url],
  ] as const) {
    if (value === undefined) continue;
    await userEvent.clear(within(dialog).getByLabelText(label));
    if (value) await userEvent.type(within(dialog).getByLabelText(label), value);
  }
  return dialog;
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

  const lists = {
    '/api/schedule-locations': { status: 200, body: [] },
    // The building's rooms: none is needed, its schedules go to rooms by location.
    '/api/buildings/': { status: 200, body: [] },
    '/api/buildings': buildings,
  };

  it("adds a building's schedule by its feed URL, a webcal:// address sent as https://", async () => {
    const calls = serve({
      'POST /api/schedule-sources': { status: 201, body: source({ name: 'Hall A lectures' }) },
      '/api/schedule-sources': { status: 200, body: [] },
      ...lists,
    });
    renderWithApp(<ClassSchedulesTab />);
    await userEvent.type(await screen.findByLabelText('Name'), 'Hall A lectures');
    await screen.findByRole('option', { name: 'Hall A' });
    await userEvent.selectOptions(screen.getByLabelText('Building'), 'Hall A');
    expect(screen.getByLabelText('Room')).toHaveDisplayValue('Whole building (rooms by location)');
    await userEvent.type(screen.getByLabelText('Feed URL'), 'webcal://calendar.example.edu/hall-a.ics');
    await userEvent.click(screen.getByRole('button', { name: 'Add schedule' }));

    expect(await screen.findByText('Class schedule added')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/api/schedule-sources',
        body: {
          name: 'Hall A lectures',
          roomId: null,
          buildingId,
          url: 'https://calendar.example.edu/hall-a.ics',
        },
      },
    ]);
    expect(screen.getByLabelText('Feed URL')).toHaveValue('');
  });

  it('edits a schedule’s name and feed URL: Save waits for the answer, the room or building is sent as it was', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const renamed = { name: 'Hall A lectures', url: 'https://calendar.example.edu/hall-a-2027.ics' };
    const calls = serve({
      [`PUT /api/schedule-sources/${source({}).id}`]: async () => {
        await answered;
        return { status: 200, body: source(renamed) };
      },
      '/api/schedule-sources': { status: 200, body: [source({}), file] },
      ...lists,
    });
    renderWithApp(<ClassSchedulesTab />);
    const editButton = await screen.findByRole('button', { name: 'Edit Hall A feed' });
    const dialog = await edit('Hall A feed', renamed);
    expect(within(dialog).getByText(/^Building: Hall A/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));

    expect(within(dialog).getByRole('button', { name: 'Saving...' })).toBeDisabled();
    answer();
    expect(await screen.findByText('Class schedule saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(editButton).toHaveFocus();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([
      {
        method: 'PUT',
        url: `/api/schedule-sources/${source({}).id}`,
        body: { ...renamed, roomId: null, buildingId },
      },
    ]);
  });

  it('deletes a schedule only once the person confirms it', async () => {
    const calls = serve({
      [`DELETE /api/schedule-sources/${file.id}`]: { status: 204 },
      '/api/schedule-sources': { status: 200, body: [source({}), file] },
      ...lists,
    });
    const confirm = jest.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithApp(<ClassSchedulesTab />);
    const deleteButton = await screen.findByRole('button', { name: 'Delete Room 101 timetable' });

    await userEvent.click(deleteButton);
    expect(confirm).toHaveBeenLastCalledWith(
      expect.stringContaining('Delete the class schedule Room 101 timetable?'),
    );
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await userEvent.click(deleteButton);
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
        `/api/schedule-sources/${file.id}`,
      ]),
    );
    confirm.mockRestore();
  });

  it('opens the edit form on its Name, and sends nothing while the name is empty', async () => {
    const calls = serve({ '/api/schedule-sources': { status: 200, body: [file] }, ...lists });
    renderWithApp(<ClassSchedulesTab />);
    const dialog = await edit('Room 101 timetable', {});
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    expect(within(dialog).getByText('Room: Hall A · 101')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Name'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it.each([
    [
      400,
      'INVENTORY.SCHEDULE_URL_REFUSED',
      'The address 10.20.0.5 is in a private-use network: list it in ALERTS_ALLOWED_TARGETS to fetch it',
    ],
    [422, 'INVENTORY.SCHEDULE_FILE_INVALID', 'The calendar at this address has errors, so it was not used'],
  ])(
    'shows the server’s %i answer in the edit form, which stays open to correct it',
    async (status, code, message) => {
      serve({
        [`PUT /api/schedule-sources/${file.id}`]: { status, body: { code, message } },
        '/api/schedule-sources': { status: 200, body: [file] },
        ...lists,
      });
      renderWithApp(<ClassSchedulesTab />);
      const dialog = await edit('Room 101 timetable', { url: 'https://10.20.0.5/hall-a.ics' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
      expect(within(dialog).getByRole('button', { name: 'Save schedule' })).toBeEnabled();
      expect(within(dialog).getByLabelText('Feed URL')).toHaveValue('https://10.20.0.5/hall-a.ics');
    },
  );

  it('puts a message the server gives for a field under that field', async () => {
    const refusal = 'URL must be the http(s):// or webcal:// address of an iCalendar feed';
    serve({
      [`PUT /api/schedule-sources/${file.id}`]: {
        status: 400,
        body: {
          code: 'COMMON.VALIDATION_FAILED',
          message: refusal,
          errors: [{ path: 'url', message: refusal }],
        },
      },
      '/api/schedule-sources': { status: 200, body: [file] },
      ...lists,
    });
    renderWithApp(<ClassSchedulesTab />);
    const dialog = await edit('Room 101 timetable', { url: 'https://calendar.example.edu/101.ics' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Feed URL')).toHaveAccessibleDescription(refusal),
    );
    expect(within(dialog).getAllByRole('alert')).toHaveLength(1);
  });
});
