import { fireEvent, screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { buildingId, buildingsAnswer as buildings } from '../test/buildings';
import { QuietHoursSection } from './quiet-hours-section';

const hours = {
  days: [1, 2, 3, 4, 5],
  start: '07:30',
  end: '18:00',
  timeZone: 'UTC',
  outside: 'digest',
  idleRoomsWait: false,
};

describe(QuietHoursSection.name, () => {
  it("sets a building's teaching hours and says what they now are", async () => {
    const calls = fakeFetch(
      buildings,
      { status: 200, body: { buildingId, quietHours: null } },
      { status: 200, body: { buildingId, quietHours: hours } },
    );
    renderWithApp(<QuietHoursSection />);
    expect(await screen.findByText('No teaching hours: alerts go out at any hour.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Start'), { target: { value: '07:30' } });
    fireEvent.change(screen.getByLabelText('End'), { target: { value: '18:00' } });
    await userEvent.clear(screen.getByLabelText(/^Time zone/));
    await userEvent.type(screen.getByLabelText(/^Time zone/), 'UTC');
    await userEvent.click(screen.getByRole('button', { name: 'Save quiet hours' }));
    expect(
      await screen.findByText(
        'Teaching Mon, Tue, Wed, Thu, Fri 07:30–18:00 (UTC); outside: a digest when teaching starts.',
      ),
    ).toBeInTheDocument();
    expect(calls[2]).toMatchObject({
      url: `/api/buildings/${buildingId}/quiet-hours`,
      init: { method: 'PUT' },
    });
    expect(JSON.parse(String(calls[2].init?.body))).toEqual(hours);
    expect(screen.getByRole('button', { name: 'Remove quiet hours' })).toBeInTheDocument();
  });

  it('lets a room with no more classes today wait for the morning digest, and says so', async () => {
    const held = { ...hours, idleRoomsWait: true };
    const calls = fakeFetch(
      buildings,
      { status: 200, body: { buildingId, quietHours: hours } },
      { status: 200, body: { buildingId, quietHours: held } },
    );
    renderWithApp(<QuietHoursSection />);
    const idle = await screen.findByRole('switch', {
      name: 'Rooms with no more classes today wait for the morning digest',
    });
    expect(idle).not.toBeChecked();
    await userEvent.click(idle);
    await userEvent.click(screen.getByRole('button', { name: 'Save quiet hours' }));
    expect(
      await screen.findByText(
        'Teaching Mon, Tue, Wed, Thu, Fri 07:30–18:00 (UTC); outside: a digest when teaching starts.',
      ),
    ).toBeInTheDocument();
    expect(JSON.parse(String(calls[2].init?.body))).toEqual(held);
  });

  it('says what is wrong before sending: no day, an end before the start, an unknown time zone', async () => {
    const calls = fakeFetch(buildings, { status: 200, body: { buildingId, quietHours: null } });
    renderWithApp(<QuietHoursSection />);
    await screen.findByText('No teaching hours: alerts go out at any hour.');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await userEvent.click(screen.getByLabelText(day));
    fireEvent.change(screen.getByLabelText('Start'), { target: { value: '18:00' } });
    fireEvent.change(screen.getByLabelText('End'), { target: { value: '07:00' } });
    await userEvent.clear(screen.getByLabelText(/^Time zone/));
    await userEvent.type(screen.getByLabelText(/^Time zone/), 'Mars/Olympus');
    await userEvent.click(screen.getByRole('button', { name: 'Save quiet hours' }));
    expect(await screen.findByText('Choose at least one teaching day')).toBeInTheDocument();
    expect(screen.getByText('The end must be later than the start')).toBeInTheDocument();
    expect(
      screen.getByText('Time zone must be an IANA time zone, such as Europe/Berlin or UTC'),
    ).toBeInTheDocument();
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it('says under the time zone why the server refused it, until the zone is edited', async () => {
    const refusal = 'Time zone must be an IANA time zone, such as Europe/Berlin or UTC';
    fakeFetch(
      buildings,
      { status: 200, body: { buildingId, quietHours: null } },
      {
        status: 400,
        body: {
          code: 'COMMON.VALIDATION_FAILED',
          message: refusal,
          errors: [{ path: 'timeZone', message: refusal }],
        },
      },
    );
    renderWithApp(<QuietHoursSection />);
    await screen.findByText('No teaching hours: alerts go out at any hour.');
    await userEvent.click(screen.getByRole('button', { name: 'Save quiet hours' }));
    expect(await screen.findByText('Error saving quiet hours')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Time zone/)).toHaveAccessibleDescription(refusal);
    await userEvent.type(screen.getByLabelText(/^Time zone/), 'x');
    expect(screen.getByLabelText(/^Time zone/)).toHaveAccessibleDescription(
      'Such as Europe/Berlin or America/New_York',
    );
  });
});
