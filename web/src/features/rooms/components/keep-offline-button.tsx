import { apiRoutes } from '../../../lib/api-routes';
import { useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { apiQuery, errorMessage } from '../../../lib/api';
import { buildingOfRoomsQuery, roomsQuery } from '../api/rooms';

/**
 * Downloads the whole building to the phone before a walk into its basement: the building, its
 * rooms, each room and its equipment, each read kept as any read is, so that every screen of it
 * opens offline. The pictures are fetched too, for the browser's cache.
 */
export function KeepOfflineButton({ buildingId }: { buildingId: string }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const keep = async () => {
    setBusy(true);
    try {
      await queryClient.fetchQuery(buildingOfRoomsQuery(buildingId));
      const rooms = await queryClient.fetchQuery(roomsQuery(buildingId));
      for (const room of rooms) {
        await queryClient.fetchQuery(apiQuery(apiRoutes.getRoom, { id: room.id }));
        await queryClient.fetchQuery(apiQuery(apiRoutes.listEquipment, { roomId: room.id }));
        if (room.imageUrl) await fetch(room.imageUrl, { credentials: 'include' }).catch(() => undefined);
      }
      toast({
        title: 'Kept offline',
        description: `This building and its ${rooms.length} ${rooms.length === 1 ? 'room' : 'rooms'} open without a connection.`,
      });
    } catch (error) {
      toast({ title: 'Could not keep it offline', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" className="w-full" disabled={busy} onClick={() => void keep()}>
      <Download aria-hidden className="h-5 w-5" />
      {busy ? 'Keeping offline...' : 'Keep offline'}
    </Button>
  );
}
