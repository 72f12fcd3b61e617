import { MAX_UPLOAD_BYTES, type Room } from '@cm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QrCode } from 'lucide-react';
import { type ReactNode, Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { LoadError } from '../../../components/ui/load-error';
import { NotFound } from '../../../components/ui/not-found';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { PendingTag } from '../../../components/ui/pending-tag';
import { ApiError } from '../../../lib/api';
import { isConflicted, isQueued } from '../../../lib/offline/markers';
// With the screen: a picture is kept offline, when a chunk fetched then would not arrive.
import { queueableUpload } from '../../../lib/offline/queueable-upload';
import { type RoomAttachmentField, roomQuery, useAttachToRoom } from '../api/rooms';
import { attachments } from '../lib/attachment-words';
import { RoomFormDialog } from './room-form-dialog';
import { RoomPhoto, RoomTiles } from './room-tiles';

/*
 * What the first look at a room does not need comes once it is drawn (issue 37's 120 kB): the
 * connection notes (their type select), the upload dialog, the QR label and the pictures' full
 * screen views. The dialogs and views are mounted closed with the screen, so they are here before
 * they are opened, offline too.
 */
const ConnectionDetails = lazyComponent(
  () => import('./connection-details'),
  (m) => m.ConnectionDetails,
);
const ImageUploadDialog = lazyComponent(
  () => import('../../../components/upload/image-upload-dialog'),
  (m) => m.ImageUploadDialog,
);
const RoomQrDialog = lazyComponent(
  () => import('./room-qr-dialog'),
  (m) => m.RoomQrDialog,
);
const WiringDiagramView = lazyComponent(
  () => import('./room-viewers'),
  (m) => m.WiringDiagramView,
);
const SeatingLayoutView = lazyComponent(
  () => import('./room-viewers'),
  (m) => m.SeatingLayoutView,
);

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
  /** The full screen view of a picture, with Replace and Remove. */
  const viewer = (which: 'wiring' | 'seating', field: RoomAttachmentField) => ({
    room: data,
    open: viewing === which,
    onOpenChange: (open: boolean) => setViewing(open ? which : null),
    onReplace: () => {
      setViewing(null);
      setUploading(field);
    },
    onRemove: () => remove(field),
  });

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
      <ConnectionNotes />
      {equipment}
      {changes}
      <Suspense fallback={null}>
        <ImageUploadDialog
          open={uploading !== null}
          onOpenChange={(open) => !open && setUploading(null)}
          title={uploading ? attachments[uploading].dialogTitle : ''}
          maxBytes={MAX_UPLOAD_BYTES}
          onUploaded={(path) => (uploading ? attachUploaded(data, uploading, path) : undefined)}
          onKeep={(file) => (uploading ? keepUpload(data, uploading, file) : Promise.resolve())}
        />
        <RoomQrDialog room={data} open={showingQr} onOpenChange={setShowingQr} />
        <RoomFormDialog open={editing} onOpenChange={setEditing} buildingId={data.buildingId} room={data} />
        <WiringDiagramView {...viewer('wiring', 'wiringDiagramUrl')} />
        <SeatingLayoutView {...viewer('seating', 'seatingLayoutUrl')} equipmentCount={equipmentCount} />
      </Suspense>
    </div>
  );
}

/** The visit's connection notes, whose code (and its type select) comes after the room is drawn. */
function ConnectionNotes() {
  return (
    <Suspense fallback={<Skeleton className="h-40" aria-label="Loading connection details" />}>
      <ConnectionDetails />
    </Suspense>
  );
}

/** Attaching a room's uploaded picture, and removing one once a person confirms it. */
function useRoomAttachments() {
  const attach = useAttachToRoom();
  const queryClient = useQueryClient();
  // A failure here is reported by the upload dialog, which stays open.
  const attachUploaded = async (room: Room, field: RoomAttachmentField, path: string) => {
    tellPicture(await attach.mutateAsync({ room, field, path }), attachments[field].what, 'uploaded');
  };
  /** A picture chosen offline: kept on the phone, sent with the other waiting changes. */
  const keepUpload = async (room: Room, field: RoomAttachmentField, file: File) => {
    const { what } = attachments[field];
    const result = await queueableUpload(room, field, what, file);
    tellPicture(result, what, 'uploaded');
    if (!isQueued(result) && !isConflicted(result))
      await queryClient.invalidateQueries({ queryKey: roomQuery(room.id).queryKey });
  };
  /** Whether the person confirmed the removal (it is then under way, or kept on the phone). */
  const removeAttachment = (room: Room, field: RoomAttachmentField): boolean => {
    const { what } = attachments[field];
    if (!window.confirm(`Remove the ${what.toLowerCase()} of ${room.name}?`)) return false;
    attach.mutate(
      { room, field, path: null },
      {
        onSuccess: (result) => tellPicture(result, what, 'removed'),
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

/** Says what became of a picture's change: done, kept on the phone, or changed elsewhere meanwhile. */
function tellPicture(result: unknown, what: string, done: 'uploaded' | 'removed'): void {
  if (isQueued(result))
    toast({
      title: 'Saved on this phone',
      description: `${what} will be ${done} when the connection is back.`,
    });
  else if (isConflicted(result))
    toast({
      title: 'Changed elsewhere',
      description:
        'Someone else saved this room meanwhile. Open the waiting changes to compare both versions.',
      variant: 'destructive',
    });
  else
    toast({
      title: 'Success',
      description: `${what} ${done === 'uploaded' ? 'uploaded successfully' : done}`,
    });
}

function RoomHeading({ room, onQrLabel }: { room: Room; onQrLabel: () => void }) {
  return (
    <div className="flex items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold break-words text-slate-900">{room.name}</h1>
        <p className="text-slate-600">{room.type}</p>
        {/* Its pictures chosen or removed offline, not yet sent. */}
        <PendingTag record={`Room:${room.id}`} className="mt-1" />
      </div>
      <Button variant="outline" className="shrink-0" onClick={onQrLabel}>
        <QrCode aria-hidden className="h-5 w-5" />
        QR label
      </Button>
    </div>
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
