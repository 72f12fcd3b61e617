import { type BuildingListItem } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { currentEntries } from '../../../lib/offline/outbox-entries';
import { discard } from '../../../lib/offline/outbox-store';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { BuildingForm } from './building-form';

const building: BuildingListItem = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Science Hall',
  description: 'North campus',
  imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000000009',
  version: 1,
  roomCount: 2,
  statusCounts: { active: 0, inactive: 0, partial: 0, maintenance: 0 },
};

describe(BuildingForm.name, () => {
  it('needs a name, sends nothing without one, and drops the message once the name is edited', async () => {
    const calls = fakeFetch();
    renderWithApp(<BuildingForm onDone={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Building' }));
    expect(await screen.findByText('Building name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Building Name *')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toEqual([]);
    await userEvent.type(screen.getByLabelText('Building Name *'), ' ');
    expect(screen.queryByText('Building name is required')).not.toBeInTheDocument();
  });

  it('takes a pasted name whole, counts it against the limit, and says on save that it is too long', async () => {
    const calls = fakeFetch();
    renderWithApp(<BuildingForm onDone={() => {}} />);
    const name = screen.getByLabelText('Building Name *');
    await userEvent.type(name, 'a'.repeat(95));
    expect(screen.queryByText(/\/ 120/)).not.toBeInTheDocument();
    await userEvent.type(name, 'b');
    expect(screen.getByText(/^96 \/ 120/)).toBeInTheDocument();
    await userEvent.click(name);
    await userEvent.paste('c'.repeat(30));
    expect(name).toHaveValue(`${'a'.repeat(95)}b${'c'.repeat(30)}`);
    expect(screen.getByText(/^126 \/ 120/)).toHaveClass('text-red-600');
    await userEvent.click(screen.getByRole('button', { name: 'Add Building' }));
    expect(await screen.findByText('Building name must be at most 120 characters')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('removes the current photo on save once the removal is confirmed', async () => {
    const calls = fakeFetch({ status: 200, body: { ...building, imageUrl: null } });
    const confirm = jest.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderWithApp(<BuildingForm building={building} onDone={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Photo' }));
    expect(screen.getByRole('img', { name: 'Science Hall (current)' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove Photo' }));
    expect(screen.queryByRole('img', { name: 'Science Hall (current)' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save Building' }));
    expect(await screen.findByText('Building updated successfully')).toBeInTheDocument();
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({
      name: 'Science Hall',
      description: 'North campus',
      imageUrl: null,
    });
    expect(confirm).toHaveBeenCalledTimes(2);
    confirm.mockRestore();
  });

  it('edits without a new photo: PUTs the name and description and leaves the photo out', async () => {
    const calls = fakeFetch({ status: 200, body: { ...building, name: 'Science Hall North' } });
    const onDone = jest.fn();
    renderWithApp(<BuildingForm building={building} onDone={onDone} />);
    expect(screen.getByRole('heading', { name: 'Edit Building' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Building Name *'), ' North');
    await userEvent.click(screen.getByRole('button', { name: 'Save Building' }));
    expect(await screen.findByText('Building updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0]).toMatchObject({ url: `/api/buildings/${building.id}`, init: { method: 'PUT' } });
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({
      name: 'Science Hall North',
      description: 'North campus',
    });
  });

  it('says why the server refused the photo, a busy server included, and saves nothing', async () => {
    const message = 'You already have 3 uploads in progress. Wait for one to finish, then try again.';
    const calls = fakeFetch({ status: 429, body: { code: 'MEDIA.TOO_MANY_UPLOADS', message } });
    renderWithApp(<BuildingForm onDone={() => {}} />);
    await userEvent.type(screen.getByLabelText('Building Name *'), 'Library');
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'library.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByLabelText('Building Photo'), photo);
    await userEvent.click(screen.getByRole('button', { name: 'Add Building' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(calls.map((c) => c.url)).toEqual(['/api/upload']);
  });

  it('retries a failed save with the photo already uploaded and the same Idempotency-Key', async () => {
    const url = '/objects/uploads/00000000-0000-4000-8000-00000000000a';
    const calls = fakeFetch(
      { status: 200, body: { url } },
      { status: 503, body: { code: 'COMMON.SERVICE_UNAVAILABLE', message: 'Busy' } },
      {
        status: 201,
        body: { id: building.id, name: 'Library', description: null, imageUrl: url, version: 1 },
      },
    );
    renderWithApp(<BuildingForm onDone={() => {}} />);
    await userEvent.type(screen.getByLabelText('Building Name *'), 'Library');
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'library.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByLabelText('Building Photo'), photo);
    await userEvent.click(screen.getByRole('button', { name: 'Add Building' }));
    expect(await screen.findByText('Failed to add building')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add Building' }));
    expect(await screen.findByText('Building added successfully')).toBeInTheDocument();

    expect(calls.map((c) => c.url)).toEqual(['/api/upload', '/api/buildings', '/api/buildings']);
    const [, first, retry] = calls.map((c) => ({
      key: (c.init?.headers as Record<string, string> | undefined)?.['Idempotency-Key'],
      body: c.init?.body,
    }));
    expect(first.key).toMatch(/^[0-9a-f]{32}$/);
    expect(retry).toEqual(first);
    expect(JSON.parse(String(retry.body))).toEqual({ name: 'Library', description: '', imageUrl: url });
  });

  it('offline, keeps the photo on the phone with the edit, to upload and set on the version it was opened on', async () => {
    const calls = fakeFetch();
    const offline = jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const onDone = jest.fn();
    renderWithApp(<BuildingForm building={building} onDone={onDone} />);
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'hall.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByLabelText('Building Photo'), photo);
    await userEvent.click(screen.getByRole('button', { name: 'Save Building' }));
    expect(await screen.findByText('It will be sent when the connection is back.')).toBeInTheDocument();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls).toEqual([]);
    const [kept] = currentEntries();
    expect(kept).toMatchObject({
      route: 'updateBuilding',
      params: { id: building.id },
      body: { name: 'Science Hall', description: 'North campus' },
      ifVersion: 1,
      label: 'Edit building Science Hall with a new photo',
      file: { name: 'hall.jpg', type: 'image/jpeg' },
    });
    expect(kept.body).not.toHaveProperty('imageUrl');
    offline.mockRestore();
    await discard(kept.key);
  });

  it('keeps what is typed as a draft: the form opens with it again, and a save forgets it', async () => {
    const first = renderWithApp(<BuildingForm building={building} onDone={() => {}} />);
    await userEvent.clear(screen.getByLabelText('Description'));
    await userEvent.type(screen.getByLabelText('Description'), 'Lamp store');
    // The form goes away without a save or a cancel (the session ended, the tab was closed).
    first.unmount();

    const calls = fakeFetch({ status: 200, body: { ...building, description: 'Lamp store', version: 2 } });
    const second = renderWithApp(<BuildingForm building={building} onDone={() => {}} />);
    expect(screen.getByLabelText('Description')).toHaveValue('Lamp store');
    await userEvent.click(screen.getByRole('button', { name: 'Save Building' }));
    expect(await screen.findByText('Building updated successfully')).toBeInTheDocument();
    expect((calls[0].init?.headers as Record<string, string>)['If-Match']).toBe('"1"');
    second.unmount();

    renderWithApp(<BuildingForm building={building} onDone={() => {}} />);
    expect(screen.getByLabelText('Description')).toHaveValue('North campus');
  });
});
