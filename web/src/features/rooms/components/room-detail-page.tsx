import { MAX_UPLOAD_BYTES, type Room } from '@cm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QrCode, Trash2 } from 'lucide-react';
import { type ComponentProps, type ReactNode, Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FullScreenViewer } from '../../../components/ui/full-screen-viewer';
import { LoadError } from '../../../components/ui/load-error';
import { NotFound } from '../../../components/ui/not-found';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { PendingTag } from '../../../components/ui/pending-tag';
import { ApiError } from '../../../lib/api';
import { isQueued } from '../../../lib/offline/markers';
// With the screen: a picture is kept offline, when a chunk fetched then would not arrive.
import { queueableUpload } from '../../../lib/offline/queueable-upload';
import { type RoomAttachmentField, roomQuery, useAttachToRoom } from '../api/rooms';
import { ConnectionDetails } from './connection-details';
import { RoomFormDialog } from './room-form-dialog';
import { RoomQrDialog } from './room-qr-dialog';
import { RoomPhoto, RoomTiles } from './room-tiles';

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

/**
 * The upload dialog's code (the picker, the upload, the offline keeping) comes after the screen is
 * drawn, not with it: mounted closed with the screen, it is there by the time a picture is tapped.
 */
const ImageUploadDialogCode = lazyComponent(
  () => import('../../../components/upload/image-upload-dialog'),
  (m) => m.ImageUploadDialog,
);

function RoomImageUploadDialog(props: ComponentProps<typeof ImageUploadDialogCode>) {
  return (
    <Suspense fallback={null}>
      <ImageUploadDialogCode {...props} />
    </Suspense>
  );
}

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
  const { attach, attachUploaded, keepUpload, removeAttachment } = useRoomAttachments();
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

  const remove = (field: RoomAttachmentField) => {
    if (removeAttachment(data, field)) setViewing(null);
  };
  const replace = (field: RoomAttachmentField) => () => {
    setViewing(null);
    setUploading(field);
  };

  return (
    <div className="space-y-5">
      <RoomPhoto
        room={data}
        removeLabel={attachments.imageUrl.removeLabel}
        busy={attach.isPending}
        onRemove={() => remove('imageUrl')}
        onChange={() => setUploading('imageUrl')}
      />
      <RoomHeading room={data} onQrLabel={() => setShowingQr(true)} />
      {notice}
      <RoomTiles
        room={data}
        equipmentCount={equipmentCount}
        onEdit={() => setEditing(true)}
        onWiring={() => (data.wiringDiagramUrl ? setViewing('wiring') : setUploading('wiringDiagramUrl'))}
        onSeating={() => (data.seatingLayoutUrl ? setViewing('seating') : setUploading('seatingLayoutUrl'))}
      />
      {maintenance}
      <ConnectionDetails />
      {equipment}
      {changes}
      <RoomImageUploadDialog
        open={uploading !== null}
        onOpenChange={(open) => !open && setUploading(null)}
        title={uploading ? attachments[uploading].dialogTitle : ''}
        maxBytes={MAX_UPLOAD_BYTES}
        onUploaded={(path) => (uploading ? attachUploaded(data, uploading, path) : undefined)}
        onKeep={(file) => (uploading ? keepUpload(data, uploading, file) : Promise.resolve())}
      />
      <RoomQrDialog room={data} open={showingQr} onOpenChange={setShowingQr} />
      <RoomFormDialog open={editing} onOpenChange={setEditing} buildingId={data.buildingId} room={data} />
      <WiringDiagramView
        room={data}
        open={viewing === 'wiring'}
        onOpenChange={(open) => setViewing(open ? 'wiring' : null)}
        onReplace={replace('wiringDiagramUrl')}
        onRemove={() => remove('wiringDiagramUrl')}
      />
      <SeatingLayoutView
        room={data}
        equipmentCount={equipmentCount}
        open={viewing === 'seating'}
        onOpenChange={(open) => setViewing(open ? 'seating' : null)}
        onReplace={replace('seatingLayoutUrl')}
        onRemove={() => remove('seatingLayoutUrl')}
      />
    </div>
  );
}

/** Attaching a room's uploaded picture, and removing one once a person confirms it. */
function useRoomAttachments() {
  const attach = useAttachToRoom();
  const queryClient = useQueryClient();
  // A failure here is reported by the upload dialog, which stays open.
  const attachUploaded = async (room: Room, field: RoomAttachmentField, path: string) => {
    await attach.mutateAsync({ id: room.id, field, path });
    toast({ title: 'Success', description: `${attachments[field].what} uploaded successfully` });
  };
  /** A picture chosen offline: kept on the phone, sent with the other waiting changes. */
  const keepUpload = async (room: Room, field: RoomAttachmentField, file: File) => {
    const { what } = attachments[field];
    const result = await queueableUpload(room, field, what, file);
    if (isQueued(result))
      toast({
        title: 'Saved on this phone',
        description: `${what} will be uploaded when the connection is back.`,
      });
    else {
      toast({ title: 'Success', description: `${what} uploaded successfully` });
      await queryClient.invalidateQueries({ queryKey: roomQuery(room.id).queryKey });
    }
  };
  /** Whether the person confirmed the removal (it is then under way). */
  const removeAttachment = (room: Room, field: RoomAttachmentField): boolean => {
    const { what } = attachments[field];
    if (!window.confirm(`Remove the ${what.toLowerCase()} of ${room.name}?`)) return false;
    attach.mutate(
      { id: room.id, field, path: null },
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
    return true;
  };
  return { attach, attachUploaded, keepUpload, removeAttachment };
}

function RoomHeading({ room, onQrLabel }: { room: Room; onQrLabel: () => void }) {
  return (
    <div className="flex items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold break-words text-slate-900">{room.name}</h1>
        <p className="text-slate-600">{room.type}</p>
        {/* Its pictures chosen offline, not yet sent. */}
        <PendingTag record={`Room:${room.id}`} className="mt-1" />
      </div>
      <Button variant="outline" className="shrink-0" onClick={onQrLabel}>
        <QrCode aria-hidden className="h-5 w-5" />
        QR label
      </Button>
    </div>
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
    <div role="status" aria-busy="true" aria-label="Loading room" className="space-y-4">
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
