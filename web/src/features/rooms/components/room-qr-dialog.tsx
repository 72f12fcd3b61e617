import { type Room } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Printer } from 'lucide-react';
import { Link } from 'wouter';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { QrCode } from '../../../components/ui/qr-code';
import { buildingOfRoomsQuery } from '../api/rooms';
import { floorLabel, roomUrl } from '../lib/room-url';

interface RoomQrDialogProps {
  room: Room;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The room's QR label: a phone that scans it opens this room (after sign-in if need be). */
export function RoomQrDialog({ room, open, onOpenChange }: RoomQrDialogProps) {
  const url = roomUrl(room.id);
  const building = useQuery({ ...buildingOfRoomsQuery(room.buildingId), enabled: open });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="QR label" description="Scan it to open this room.">
        <div className="flex flex-col items-center gap-2 text-center">
          <QrCode text={url} label={`QR code of ${room.name}`} className="w-full max-w-64" />
          <p className="text-lg font-semibold break-words">{room.name}</p>
          <p className="break-words text-slate-700">{building.data?.name ?? '…'}</p>
          <p className="text-slate-700">{floorLabel(room.floor)}</p>
          <p className="text-xs break-all text-slate-600">{url}</p>
          <Link
            href={`/buildings/${room.buildingId}/labels`}
            className="mt-2 inline-flex min-h-11 items-center gap-2 font-medium text-brand-700 underline"
          >
            <Printer aria-hidden className="h-5 w-5" />
            Labels of all rooms in this building
          </Link>
        </div>
      </DialogContent>
    </Dialog>
  );
}
