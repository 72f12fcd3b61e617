import { MAX_UPLOAD_BYTES, type Room } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  Accessibility,
  Cable,
  Camera,
  LayoutGrid,
  Layers,
  Monitor,
  Pencil,
  QrCode,
  Ruler,
  Trash2,
  Users,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FullScreenViewer } from '../../../components/ui/full-screen-viewer';
import { LoadError } from '../../../components/ui/load-error';
import { NotFound } from '../../../components/ui/not-found';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { ImageUploadDialog } from '../../../components/upload/image-upload-dialog';
import { ApiError } from '../../../lib/api';
import { cn } from '../../../lib/cn';
import { type RoomAttachmentField, roomQuery, useAttachToRoom } from '../api/rooms';
import { ConnectionDetails } from './connection-details';
import { DefaultRoomPicture } from './default-room-picture';
import { RoomFormDialog } from './room-form';
import { RoomQrDialog } from './room-qr-dialog';

// Spec section 8: "{what} uploaded successfully" after a detail-page upload. Removing is ours
// (docs/spec-differences.md).
const attachments: Record<RoomAttachmentField, { what: string; dialogTitle: string; removeLabel: string }> = {
  imageUrl: { what: 'Room photo', dialogTitle: 'Change Room Photo', removeLabel: 'Remove Room Photo' },
  wiringDiagramUrl: {
    what: 'Wiring diagram',
    dialogTitle: 'Upload Wiring Diagram',
    removeLabel: 'Remove Wiring Diagram',
  },
  seatingLayoutUrl: {
    what: 'Seating layout',
    dialogTitle: 'Upload Seating Layout',
    removeLabel: 'Remove Seating Layout',
  },
};

interface RoomDetailPageProps {
  roomId: string;
  /** How many pieces of equipment the room holds, once known (the equipment list counts them). */
  equipmentCount: number | undefined;
  /** The equipment list, composed by the app (the equipment feature owns it). */
  equipment: ReactNode;
  /** Shown under the room's name: that it is in maintenance (the maintenance feature's). */
  notice?: ReactNode;
  /** The room's maintenance windows, after its tiles (the maintenance feature's). */
  maintenance?: ReactNode;
  /** The room's recent changes from the audit log, for administrators (the audit feature's). */
  changes?: ReactNode;
}

export function RoomDetailPage({
  roomId,
  equipmentCount,
  equipment,
  notice,
  maintenance,
  changes,
}: RoomDetailPageProps) {
  const room = useQuery(roomQuery(roomId));
  const attach = useAttachToRoom();
  const [uploading, setUploading] = useState<RoomAttachmentField | null>(null);
  const [viewing, setViewing] = useState<'wiring' | 'seating' | null>(null);
  const [showingQr, setShowingQr] = useState(false);
  const [editing, setEditing] = useState(false);

  if (room.isPending) return <RoomDetailSkeleton />;
  if (room.isError) {
    if (room.error instanceof ApiError && room.error.status === 404) return <NotFound what="Room" />;
    return <LoadError what="room" error={room.error} onRetry={() => room.refetch()} />;
  }
  const data = room.data;

  // A failure here is reported by the upload dialog, which stays open.
  const attachUploaded = async (field: RoomAttachmentField, path: string) => {
    await attach.mutateAsync({ id: data.id, field, path });
    toast({ title: 'Success', description: `${attachments[field].what} uploaded successfully` });
  };

  const remove = (field: RoomAttachmentField) => {
    const { what } = attachments[field];
    if (!window.confirm(`Remove the ${what.toLowerCase()} of ${data.name}?`)) return;
    setViewing(null);
    attach.mutate(
      { id: data.id, field, path: null },
      {
        onSuccess: () => toast({ title: 'Success', description: `${what} removed` }),
        onError: () =>
          toast({
            title: 'Error',
            description: `Failed to remove ${what.toLowerCase()}`,
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <div className="space-y-5">
      <div className="relative -mx-4 -mt-4 overflow-hidden bg-slate-200">
        {data.imageUrl ? (
          // The screen calls it the room photo (Change Room Photo, the default "No room photo yet"),
          // and people and browser tests find it by that name.
          // eslint-disable-next-line jsx-a11y/img-redundant-alt
          <img src={data.imageUrl} alt={`Photo of ${data.name}`} className="h-52 w-full object-cover" />
        ) : (
          <DefaultRoomPicture className="h-52 w-full" />
        )}
        <div className="absolute right-3 bottom-3 flex gap-2">
          {data.imageUrl ? (
            <Button
              variant="secondary"
              size="round"
              aria-label={attachments.imageUrl.removeLabel}
              className="bg-white/90 text-red-700"
              disabled={attach.isPending}
              onClick={() => remove('imageUrl')}
            >
              <Trash2 aria-hidden className="h-6 w-6" />
            </Button>
          ) : null}
          <Button
            variant="secondary"
            size="round"
            aria-label="Change Room Photo"
            className="bg-white/90"
            onClick={() => setUploading('imageUrl')}
          >
            <Camera aria-hidden className="h-6 w-6" />
          </Button>
        </div>
      </div>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold break-words text-slate-900">{data.name}</h1>
          <p className="text-slate-600">{data.type}</p>
        </div>
        <Button variant="outline" className="shrink-0" onClick={() => setShowingQr(true)}>
          <QrCode aria-hidden className="h-5 w-5" />
          QR label
        </Button>
      </div>
      {notice}
      <div className="grid grid-cols-2 gap-3">
        <Tile
          icon={<Users aria-hidden className="h-5 w-5" />}
          label="Capacity"
          value={String(data.capacity)}
        />
        <Tile icon={<Layers aria-hidden className="h-5 w-5" />} label="Floor" value={data.floor} text />
        <Tile
          icon={<Ruler aria-hidden className="h-5 w-5" />}
          label="Room Size"
          value={data.roomSize || 'Not specified'}
          text
        />
        <Tile
          icon={<Accessibility aria-hidden className="h-5 w-5" />}
          label="ADA Accessible"
          value={data.isAdaAccessible === 1 ? 'Yes' : 'No'}
          text
        />
        <Tile
          icon={<Monitor aria-hidden className="h-5 w-5" />}
          label="Equipment"
          value={equipmentCount === undefined ? '…' : String(equipmentCount)}
        />
        <ActionTile
          icon={<Pencil aria-hidden className="h-5 w-5" />}
          label="Edit Room"
          onClick={() => setEditing(true)}
        />
        <ActionTile
          icon={<Cable aria-hidden className="h-5 w-5" />}
          label={data.wiringDiagramUrl ? 'View Wiring' : 'Upload Wiring'}
          onClick={() => (data.wiringDiagramUrl ? setViewing('wiring') : setUploading('wiringDiagramUrl'))}
        />
        <ActionTile
          icon={<LayoutGrid aria-hidden className="h-5 w-5" />}
          label={data.seatingLayoutUrl ? 'View Seating' : 'Upload Seating'}
          onClick={() => (data.seatingLayoutUrl ? setViewing('seating') : setUploading('seatingLayoutUrl'))}
        />
      </div>
      {maintenance}
      <ConnectionDetails />
      {equipment}
      {changes}
      <ImageUploadDialog
        open={uploading !== null}
        onOpenChange={(open) => !open && setUploading(null)}
        title={uploading ? attachments[uploading].dialogTitle : ''}
        maxBytes={MAX_UPLOAD_BYTES}
        onUploaded={(path) => (uploading ? attachUploaded(uploading, path) : undefined)}
      />
      <RoomQrDialog room={data} open={showingQr} onOpenChange={setShowingQr} />
      <RoomFormDialog open={editing} onOpenChange={setEditing} buildingId={data.buildingId} room={data} />
      <WiringDiagramView
        room={data}
        open={viewing === 'wiring'}
        onOpenChange={(open) => setViewing(open ? 'wiring' : null)}
        onReplace={() => {
          setViewing(null);
          setUploading('wiringDiagramUrl');
        }}
        onRemove={() => remove('wiringDiagramUrl')}
      />
      <SeatingLayoutView
        room={data}
        equipmentCount={equipmentCount}
        open={viewing === 'seating'}
        onOpenChange={(open) => setViewing(open ? 'seating' : null)}
        onReplace={() => {
          setViewing(null);
          setUploading('seatingLayoutUrl');
        }}
        onRemove={() => remove('seatingLayoutUrl')}
      />
    </div>
  );
}

interface TileProps {
  icon: ReactNode;
  label: string;
  value: string;
  /** Words (a room size, "Not specified") in a size that fits half a 320 px screen. */
  text?: boolean;
}

function Tile({ icon, label, value, text = false }: TileProps) {
  return (
    <Card className="flex min-h-20 flex-col justify-center gap-1 p-3">
      <span className="flex items-center gap-1.5 text-sm text-slate-600">
        {icon}
        {label}
      </span>
      <span
        className={cn('break-words text-slate-900', text ? 'text-lg font-semibold' : 'text-2xl font-bold')}
      >
        {value}
      </span>
    </Card>
  );
}

function ActionTile({ icon, label, onClick }: { icon: ReactNode; label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex min-h-20 flex-col items-start justify-center gap-1 rounded-xl border border-slate-200 bg-white p-3 text-left font-semibold text-brand-800 shadow-sm hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <span className="text-brand-700">{icon}</span>
      {label}
    </button>
  );
}

interface SubViewProps {
  room: Room;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onReplace: () => void;
  onRemove: () => void;
}

const replaceButton = (onReplace: () => void) => (
  <button
    type="button"
    onClick={onReplace}
    className="min-h-11 rounded-lg px-3 font-medium text-white/90 hover:bg-white/10"
  >
    Replace
  </button>
);

/** Under the picture rather than beside Close, where the title would lose its words. */
const removeButton = (onRemove: () => void, label: string) => (
  <button
    type="button"
    onClick={onRemove}
    className="flex min-h-11 w-full items-center justify-center gap-2 rounded-lg border border-red-300/60 px-3 font-medium text-red-200 hover:bg-white/10"
  >
    <Trash2 aria-hidden className="h-5 w-5" />
    {label}
  </button>
);

/** Spec section 2: the Wiring Diagram sub-view. */
function WiringDiagramView({ room, open, onOpenChange, onReplace, onRemove }: SubViewProps) {
  return (
    <FullScreenViewer
      open={open}
      onOpenChange={onOpenChange}
      title="Wiring Diagram"
      actions={replaceButton(onReplace)}
    >
      {room.wiringDiagramUrl ? (
        <div className="space-y-4">
          <img
            src={room.wiringDiagramUrl}
            alt={`Wiring diagram of ${room.name}`}
            className="mx-auto max-h-[80dvh] w-full rounded-lg bg-white object-contain"
          />
          {removeButton(onRemove, attachments.wiringDiagramUrl.removeLabel)}
        </div>
      ) : null}
    </FullScreenViewer>
  );
}

/** Spec section 2: the Seating Layout sub-view, with the room's seating facts. */
function SeatingLayoutView({
  room,
  equipmentCount,
  open,
  onOpenChange,
  onReplace,
  onRemove,
}: SubViewProps & { equipmentCount: number | undefined }) {
  const facts: [string, string][] = [
    ['Total Seats', String(room.capacity)],
    ['Equipment', equipmentCount === undefined ? '…' : String(equipmentCount)],
    ['Room Size', room.roomSize || 'Not specified'],
    ['Layout Style', room.type],
    ['ADA Accessible', room.isAdaAccessible === 1 ? 'Yes' : 'No'],
  ];
  return (
    <FullScreenViewer
      open={open}
      onOpenChange={onOpenChange}
      title="Seating Layout"
      actions={replaceButton(onReplace)}
    >
      <div className="space-y-4">
        {room.seatingLayoutUrl ? (
          <img
            src={room.seatingLayoutUrl}
            alt={`Seating layout of ${room.name}`}
            className="mx-auto max-h-[60dvh] w-full rounded-lg bg-white object-contain"
          />
        ) : null}
        {room.seatingLayoutUrl ? removeButton(onRemove, attachments.seatingLayoutUrl.removeLabel) : null}
        <dl className="grid grid-cols-2 gap-2" aria-label="Seating facts">
          {facts.map(([label, value]) => (
            <div key={label} className="rounded-lg bg-white/10 p-3">
              <dt className="text-sm text-white/70">{label}</dt>
              <dd className="text-lg font-semibold break-words">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </FullScreenViewer>
  );
}

function RoomDetailSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading room" className="space-y-4">
      <Skeleton className="-mx-4 -mt-4 h-52 rounded-none" />
      <Skeleton className="h-8 w-1/2" />
      <div className="grid grid-cols-2 gap-3">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-20 rounded-xl" />
        ))}
      </div>
    </div>
  );
}
