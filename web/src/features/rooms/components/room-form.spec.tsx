import { type Room } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { capacityOf, RoomForm } from './room-form';

const buildingId = '00000000-0000-4000-8000-000000000001';
const room: Room = {
  id: '00000000-0000-4000-8000-000000000002',
  buildingId,
  name: '101',
  type: 'Science Lab',
  floor: 'B1',
  capacity: 28,
  roomSize: '20 x 30 ft',
  isAdaAccessible: 0,
  imageUrl: null,
  wiringDiagramUrl: null,
  seatingLayoutUrl: null,
  version: 1,
};

describe(RoomForm.name, () => {
  it('turns anything that is not a number into a capacity of 0', () => {
    expect(capacityOf('')).toBe(0);
    expect(capacityOf('abc')).toBe(0);
    expect(capacityOf('24')).toBe(24);
    expect(capacityOf('-3')).toBe(-3); // refused by the schema, with its message
  });

  it('starts empty with ADA on, and says which required fields are missing', async () => {
    const calls = fakeFetch();
    renderWithApp(<RoomForm buildingId={buildingId} onDone={() => {}} />);
    expect(screen.getByRole('switch', { name: 'ADA Accessible' })).toBeChecked();
    expect(screen.getByLabelText('Capacity')).toHaveAttribute('placeholder', '24');
    await userEvent.click(screen.getByRole('button', { name: 'Create Room' }));
    expect(await screen.findByText('Room name is required')).toBeInTheDocument();
    expect(screen.getByText('Choose a room type')).toBeInTheDocument();
    expect(screen.getByText('Floor is required')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('refuses a negative capacity with the schema message', async () => {
    fakeFetch();
    renderWithApp(<RoomForm buildingId={buildingId} room={room} onDone={() => {}} />);
    await userEvent.clear(screen.getByLabelText('Capacity'));
    await userEvent.type(screen.getByLabelText('Capacity'), '-5');
    await userEvent.click(screen.getByRole('button', { name: 'Update Room' }));
    expect(await screen.findByText('Capacity must be 0 or more')).toBeInTheDocument();
  });

  it('edits an existing room: filled in, "Update Room", and PUTs the whole form', async () => {
    const calls = fakeFetch({ status: 200, body: { ...room, name: '101A' } });
    const onDone = jest.fn();
    renderWithApp(<RoomForm buildingId={buildingId} room={room} onDone={onDone} />);
    expect(screen.getByLabelText('Room Name *')).toHaveValue('101');
    expect(screen.getByLabelText('Floor *')).toHaveValue('B1');
    expect(screen.getByRole('switch', { name: 'ADA Accessible' })).not.toBeChecked();
    await userEvent.clear(screen.getByLabelText('Room Name *'));
    await userEvent.type(screen.getByLabelText('Room Name *'), '101A');
    await userEvent.click(screen.getByRole('button', { name: 'Update Room' }));
    expect(await screen.findByText('Room updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0].url).toBe(`/api/rooms/${room.id}`);
    expect(calls[0].init?.method).toBe('PUT');
    const { id: _id, buildingId: _buildingId, version: _version, ...fields } = room;
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({ ...fields, name: '101A' });
  });

  it('says the save failed and stays open', async () => {
    fakeFetch({ status: 404, body: { code: 'INVENTORY.BUILDING_NOT_FOUND', message: 'No such building' } });
    const onDone = jest.fn();
    renderWithApp(<RoomForm buildingId={buildingId} room={room} onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Update Room' }));
    expect(await screen.findByText('Failed to update room')).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });
});
