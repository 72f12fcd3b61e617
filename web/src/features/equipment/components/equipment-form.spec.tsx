import { type Equipment } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { formLookups } from '../test-lookups';
import { EquipmentForm } from './equipment-form';

const roomId = '00000000-0000-4000-8000-000000000001';
const equipment: Equipment = {
  id: '00000000-0000-4000-8000-000000000002',
  roomId,
  name: 'Projector',
  model: 'PX-1',
  serialNumber: null,
  ipAddress: '10.0.0.5',
  status: 'active',
  notes: null,
  imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000000009',
  type: 'Display',
  upstreamEquipmentId: null,
  version: 1,
  lastCheckedAt: null,
  lastRttMs: null,
};

const buildingId = '00000000-0000-4000-8000-000000000003';
const switchId = '00000000-0000-4000-8000-000000000004';
const lookups = formLookups({ id: roomId, buildingId }, [
  { id: switchId, name: 'Switch', ipAddress: '10.0.0.1', roomId, roomName: '204' },
  { id: equipment.id, name: 'Projector', ipAddress: '10.0.0.5', roomId, roomName: '204' },
]);
/** Waits for the form's lookups, answered in order; answers the save's call. */
const loaded = async (calls: { url: string; init?: RequestInit }[]) => {
  await waitFor(() => expect(calls).toHaveLength(2));
  expect(calls.map((c) => c.url)).toEqual([`/api/rooms/${roomId}`, `/api/buildings/${buildingId}/equipment`]);
  return () => calls[2];
};

describe(EquipmentForm.name, () => {
  it('adds equipment with the room, status active and no image by default', async () => {
    const calls = fakeFetch(...lookups, { status: 201, body: equipment });
    const onDone = jest.fn();
    renderWithApp(<EquipmentForm roomId={roomId} onDone={onDone} />);
    const save = await loaded(calls);
    expect(screen.getByLabelText('Status')).toHaveTextContent('Active');
    expect(screen.getByLabelText('Upstream device')).toHaveTextContent('None');
    await userEvent.type(screen.getByLabelText('Name *'), 'Projector');
    await userEvent.click(screen.getByRole('button', { name: 'Add Equipment' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(save()).toMatchObject({ url: `/api/rooms/${roomId}/equipment`, init: { method: 'POST' } });
    expect(JSON.parse(String(save().init?.body))).toEqual({
      roomId,
      name: 'Projector',
      model: null,
      serialNumber: null,
      ipAddress: null,
      status: 'active',
      notes: null,
      imageUrl: null,
      type: null,
      upstreamEquipmentId: null,
    });
  });

  it("chooses the upstream device among the building's other equipment", async () => {
    const calls = fakeFetch(...lookups, { status: 200, body: equipment });
    renderWithApp(<EquipmentForm roomId={roomId} equipment={equipment} onDone={() => {}} />);
    const save = await loaded(calls);
    await userEvent.click(screen.getByLabelText('Upstream device'));
    const options = await screen.findAllByRole('option');
    // Not itself: a device cannot be its own upstream.
    expect(options.map((o) => o.textContent)).toEqual(['None', 'Switch (204)']);
    await userEvent.click(screen.getByRole('option', { name: 'Switch (204)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText('Equipment updated successfully')).toBeInTheDocument();
    expect(JSON.parse(String(save().init?.body))).toMatchObject({ upstreamEquipmentId: switchId });
  });

  it('edits the form fields and the room only, keeping the image as it is', async () => {
    const calls = fakeFetch(...lookups, { status: 200, body: equipment });
    renderWithApp(<EquipmentForm roomId={roomId} equipment={equipment} onDone={() => {}} />);
    const save = await loaded(calls);
    await userEvent.type(screen.getByLabelText('Notes'), 'Ceiling mount');
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText('Equipment updated successfully')).toBeInTheDocument();
    expect(save()).toMatchObject({ url: `/api/equipment/${equipment.id}`, init: { method: 'PUT' } });
    const {
      id: _id,
      imageUrl: _imageUrl,
      lastCheckedAt: _at,
      lastRttMs: _rtt,
      version: _v,
      ...sent
    } = equipment;
    expect(JSON.parse(String(save().init?.body))).toEqual({ ...sent, notes: 'Ceiling mount' });
  });

  it('sends the type as a person typed it over the one it had', async () => {
    const calls = fakeFetch(...lookups, { status: 200, body: equipment });
    renderWithApp(<EquipmentForm roomId={roomId} equipment={equipment} onDone={() => {}} />);
    const save = await loaded(calls);
    const type = screen.getByLabelText('Type');
    expect(type).toHaveValue('Display');
    await userEvent.clear(type);
    await userEvent.type(type, 'Projector');
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText('Equipment updated successfully')).toBeInTheDocument();
    expect(JSON.parse(String(save().init?.body))).toMatchObject({ type: 'Projector' });
  });

  it('refuses a status the list does not hold, as read from an older client', async () => {
    const calls = fakeFetch(...lookups);
    renderWithApp(
      <EquipmentForm roomId={roomId} equipment={{ ...equipment, status: 'online' }} onDone={() => {}} />,
    );
    await loaded(calls);
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText(/^Status must be one of: active, inactive/)).toBeInTheDocument();
    expect(calls).toHaveLength(2);
  });
});
