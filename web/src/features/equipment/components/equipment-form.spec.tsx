import { type Equipment } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
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
  lastCheckedAt: null,
  lastRttMs: null,
};

describe(EquipmentForm.name, () => {
  it('adds equipment with the room, status active and no image by default', async () => {
    const calls = fakeFetch({ status: 201, body: equipment });
    const onDone = jest.fn();
    renderWithApp(<EquipmentForm roomId={roomId} onDone={onDone} />);
    expect(screen.getByLabelText('Status')).toHaveTextContent('Active');
    await userEvent.type(screen.getByLabelText('Name *'), 'Projector');
    await userEvent.click(screen.getByRole('button', { name: 'Add Equipment' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0]).toMatchObject({ url: `/api/rooms/${roomId}/equipment`, init: { method: 'POST' } });
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({
      roomId,
      name: 'Projector',
      model: null,
      serialNumber: null,
      ipAddress: null,
      status: 'active',
      notes: null,
      imageUrl: null,
      type: null,
    });
  });

  it('edits the form fields and the room only, keeping the image as it is', async () => {
    const calls = fakeFetch({ status: 200, body: equipment });
    renderWithApp(<EquipmentForm roomId={roomId} equipment={equipment} onDone={() => {}} />);
    await userEvent.type(screen.getByLabelText('Notes'), 'Ceiling mount');
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText('Equipment updated successfully')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ url: `/api/equipment/${equipment.id}`, init: { method: 'PUT' } });
    const { id: _id, imageUrl: _imageUrl, lastCheckedAt: _at, lastRttMs: _rtt, ...sent } = equipment;
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({ ...sent, notes: 'Ceiling mount' });
  });

  it('sends the type as a person typed it over the one it had', async () => {
    const calls = fakeFetch({ status: 200, body: equipment });
    renderWithApp(<EquipmentForm roomId={roomId} equipment={equipment} onDone={() => {}} />);
    const type = screen.getByLabelText('Type');
    expect(type).toHaveValue('Display');
    await userEvent.clear(type);
    await userEvent.type(type, 'Projector');
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText('Equipment updated successfully')).toBeInTheDocument();
    expect(JSON.parse(String(calls[0].init?.body))).toMatchObject({ type: 'Projector' });
  });

  it('refuses a status the list does not hold, as read from an older client', async () => {
    const calls = fakeFetch();
    renderWithApp(
      <EquipmentForm roomId={roomId} equipment={{ ...equipment, status: 'online' }} onDone={() => {}} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText(/^Status must be one of: active, inactive/)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
