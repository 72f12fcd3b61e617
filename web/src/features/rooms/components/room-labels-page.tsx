import { useQuery } from '@tanstack/react-query';
import { Printer } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { NotFound } from '../../../components/ui/not-found';
import { QrCode } from '../../../components/ui/qr-code';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError } from '../../../lib/api';
import { buildingOfRoomsQuery, roomsQuery } from '../api/rooms';
import { groupRoomsByFloor } from '../lib/floor-groups';
import { floorLabel, roomUrl } from '../lib/room-url';

/**
 * A sheet of QR labels, one per room of a building, in the rooms list's floor order. On paper
 * only the labels print (see the print rules in styles.css), on an A4 grid to cut and stick.
 */
export function RoomLabelsPage({ buildingId }: { buildingId: string }) {
  const building = useQuery(buildingOfRoomsQuery(buildingId));
  const rooms = useQuery(roomsQuery(buildingId));

  const missing = [building.error, rooms.error].some((e) => e instanceof ApiError && e.status === 404);
  if (missing) return <NotFound what="Building" />;
  const labels = rooms.data ? groupRoomsByFloor(rooms.data).flatMap((group) => group.rooms) : [];

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-3 print:hidden">
        {building.data ? (
          <h1 className="min-w-0 text-2xl font-bold break-words text-slate-900">
            {building.data.name} QR labels
          </h1>
        ) : (
          <Skeleton className="h-8 w-2/3" />
        )}
        <Button className="shrink-0" disabled={labels.length === 0} onClick={() => window.print()}>
          <Printer aria-hidden className="h-5 w-5" />
          Print
        </Button>
      </div>
      {rooms.isPending ? (
        <Skeleton aria-label="Loading labels" className="h-64 rounded-xl" />
      ) : rooms.isError ? (
        <LoadError what="rooms" error={rooms.error} onRetry={() => rooms.refetch()} />
      ) : labels.length === 0 ? (
        <Card className="p-8 text-center text-slate-600">No rooms found</Card>
      ) : (
        <ul aria-label="QR labels" className="label-sheet grid grid-cols-2 gap-3">
          {labels.map((room) => (
            <li
              key={room.id}
              className="label flex flex-col items-center rounded-xl border border-slate-200 bg-white p-3 text-center"
            >
              {/* The code is a link too: on a PDF of the sheet it opens the room when clicked. */}
              <a href={roomUrl(room.id)} className="block w-full">
                <QrCode text={roomUrl(room.id)} label={`QR code of ${room.name}`} className="w-full" />
              </a>
              <span className="mt-1 w-full font-semibold break-words">{room.name}</span>
              {/* A label found on its own (in a drawer, in another building) still says where it belongs. */}
              <span className="w-full text-sm break-words text-slate-700">{building.data?.name}</span>
              <span className="text-sm text-slate-700">{floorLabel(room.floor)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
