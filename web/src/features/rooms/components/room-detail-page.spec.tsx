import { type Room } from '@cm/contracts';
import { renderHook, screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type OutboxEntry } from '../../../lib/offline/outbox';
import { currentEntries, refresh } from '../../../lib/offline/outbox-entries';
import { discard } from '../../../lib/offline/outbox-store';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { useAttachToRoom } from '../api/rooms';
import { RoomDetailPage } from './room-detail-page';

const room: Room = {
  id: '00000000-0000-4000-8000-000000000002',
  buildingId: '00000000-0000-4000-8000-000000000001',
  name: 'B-01',
  type: 'Classroom',
  floor: 'B1',
  capacity: 24,
  roomSize: null,
  isAdaAccessible: 1,
  imageUrl: '/objects/uploads/00000000-0000-4000-8000-000000000009',
  wiringDiagramUrl: null,
  seatingLayoutUrl: null,
  version: 3,
};

const renderRoom = () =>
  renderWithApp(<RoomDetailPage roomId={room.id} equipmentCount={0} equipment={null} />);
const headersOf = (call: { init?: RequestInit }) => (call.init?.headers ?? {}) as Record<string, string>;

/** Confirms the removal of the room's photo on its screen, once the screen is drawn. */
async function removePhoto() {
  const confirm = jest.spyOn(window, 'confirm').mockReturnValue(true);
  await userEvent.click(await screen.findByRole('button', { name: 'Remove Room Photo' }));
  expect(confirm).toHaveBeenCalledWith('Remove the room photo of B-01?');
  confirm.mockRestore();
}

/** The removal of the room's photo kept in the outbox, on the version the screen showed. */
const photoRemoval = (over: Partial<OutboxEntry>) =>
  expect.objectContaining({
    route: 'removeRoomPicture',
    params: { id: room.id, field: 'imageUrl' },
    body: { imageUrl: null },
    ifVersion: 3,
    ...over,
  }) as OutboxEntry;

afterEach(async () => {
  for (const entry of currentEntries()) await discard(entry.key);
  jest.restoreAllMocks();
});

describe(RoomDetailPage.name, () => {
  it('removes the photo on the version the screen shows, sending only that field', async () => {
    const calls = fakeFetch(
      { status: 200, body: room },
      { status: 200, body: { ...room, imageUrl: null, version: 4 } },
    );
    renderRoom();
    await removePhoto();
    expect(await screen.findByText('Room photo removed')).toBeInTheDocument();
    await screen.findByRole('img', { name: 'No room photo yet' });
    const put = calls[1];
    expect(put).toMatchObject({ url: `/api/rooms/${room.id}`, init: { method: 'PUT' } });
    expect(headersOf(put)['If-Match']).toBe('"3"');
    expect(headersOf(put)['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(String(put.init?.body))).toEqual({ imageUrl: null });
    expect(currentEntries()).toEqual([]);
  });

  it('keeps a removal of a room changed elsewhere meanwhile as a conflict with the room as it is now', async () => {
    const current = { ...room, name: 'B-01 Plant', version: 4 };
    fakeFetch(
      { status: 200, body: room },
      { status: 412, body: { code: 'COMMON.STALE_VERSION', message: 'Changed by someone else', current } },
    );
    renderRoom();
    await removePhoto();
    expect(await screen.findByText(/Someone else saved this room meanwhile/)).toBeInTheDocument();
    expect(screen.queryByText(/Failed to remove/)).not.toBeInTheDocument();
    expect(currentEntries()).toEqual([photoRemoval({ state: 'conflict', current })]);
    expect(await screen.findByText('Removal: changed elsewhere')).toBeInTheDocument();
    // Still shown: the server has it.
    expect(screen.getByRole('img', { name: 'Photo of B-01' })).toBeInTheDocument();
  });

  it('offline, keeps the removal on the phone, tagged on the room, to send on the version it was made on', async () => {
    const calls = fakeFetch({ status: 200, body: room });
    renderRoom();
    await screen.findByRole('img', { name: 'Photo of B-01' });
    jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await removePhoto();
    expect(
      await screen.findByText('Room photo will be removed when the connection is back.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Failed to remove/)).not.toBeInTheDocument();
    expect(await screen.findByText('Pending removal')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(currentEntries()).toEqual([
      photoRemoval({ label: 'Remove room photo of B-01', state: 'waiting' }),
    ]);
  });
});

describe(useAttachToRoom.name, () => {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
  );

  it('sets a picture uploaded online on the version the screen shows, and a room changed meanwhile is a conflict', async () => {
    const url = '/objects/uploads/00000000-0000-4000-8000-00000000000a';
    const current = { ...room, name: 'B-01 Plant', version: 4 };
    const calls = fakeFetch(
      { status: 200, body: { ...room, wiringDiagramUrl: url, version: 4 } },
      { status: 412, body: { code: 'COMMON.STALE_VERSION', message: 'Changed by someone else', current } },
    );
    const { result } = renderHook(() => useAttachToRoom(), { wrapper });
    const set = await result.current.mutateAsync({ room, field: 'wiringDiagramUrl', path: url });
    expect(set).toMatchObject({ wiringDiagramUrl: url, version: 4 });
    expect(calls[0]).toMatchObject({ url: `/api/rooms/${room.id}`, init: { method: 'PUT' } });
    expect(headersOf(calls[0])['If-Match']).toBe('"3"');
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({ wiringDiagramUrl: url });

    await result.current.mutateAsync({ room, field: 'seatingLayoutUrl', path: url });
    expect(headersOf(calls[1])['If-Match']).toBe('"3"');
    await refresh();
    expect(currentEntries()).toEqual([
      expect.objectContaining({
        route: 'uploadRoomPicture',
        body: { seatingLayoutUrl: url },
        ifVersion: 3,
        state: 'conflict',
        current,
      }),
    ]);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
  });
});
