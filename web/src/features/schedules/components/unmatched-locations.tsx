import { type ScheduleLocation } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { MapPin } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { errorMessage } from '../../../lib/api';
import { NativeSelect } from './native-select';
import {
  buildingRoomsQuery,
  scheduleSourcesQuery,
  unmatchedLocationsQuery,
  useMapLocation,
} from '../api/schedules';

/**
 * The LOCATION texts of buildings' schedules that name no room yet: their classes show nowhere
 * until an administrator says which room each is, once for every schedule that writes it.
 */
export function UnmatchedLocations() {
  const locations = useQuery(unmatchedLocationsQuery);
  const sources = useQuery(scheduleSourcesQuery);
  if (locations.isError)
    return (
      <LoadError what="unmatched locations" error={locations.error} onRetry={() => locations.refetch()} />
    );
  if (!locations.data?.length) return null;
  const buildingOf = (location: ScheduleLocation) =>
    sources.data?.find((s) => location.sourceIds.includes(s.id))?.buildingId ?? null;
  return (
    <Card className="space-y-3 p-4">
      <h2 className="text-lg font-semibold text-slate-900">Locations without a room</h2>
      <p className="text-sm text-slate-600">
        Classes at these locations are not shown in any room. Choose the room each one is; it is remembered
        for every schedule.
      </p>
      <ul className="space-y-3">
        {locations.data.map((location) => (
          <LocationRow key={location.location} location={location} buildingId={buildingOf(location)} />
        ))}
      </ul>
    </Card>
  );
}

function LocationRow({ location, buildingId }: { location: ScheduleLocation; buildingId: string | null }) {
  const [roomId, setRoomId] = useState('');
  const rooms = useQuery({ ...buildingRoomsQuery(buildingId ?? 'none'), enabled: Boolean(buildingId) });
  const map = useMapLocation();
  return (
    <li className="space-y-2 rounded-lg bg-slate-50 p-3">
      <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
        <MapPin aria-hidden className="h-4 w-4 shrink-0 text-brand-700" />
        {location.location}
        <span className="font-normal text-slate-600">
          · {location.occurrences} class{location.occurrences === 1 ? '' : 'es'}
        </span>
      </p>
      <div className="flex gap-2">
        <div className="min-w-0 flex-1">
          <NativeSelect
            aria-label={`Room for ${location.location}`}
            value={roomId}
            onChange={(e) => setRoomId(e.target.value)}
            options={(rooms.data ?? []).map((r) => r.id)}
            labelOf={(id) => rooms.data?.find((r) => r.id === id)?.name ?? id}
            placeholder="Choose the room"
          />
        </div>
        <Button
          onClick={() => map.mutate({ location: location.location, roomId })}
          disabled={!roomId || map.isPending}
        >
          Map
        </Button>
      </div>
      {map.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {errorMessage(map.error)}
        </p>
      ) : null}
    </li>
  );
}
