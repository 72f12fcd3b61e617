import { scheduleSourceInputSchema } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { NativeSelect } from './native-select';
import { buildingRoomsQuery, buildingsQuery, useSaveScheduleSource } from '../api/schedules';

/** The feed URL field's words, the same when a schedule is added and when it is edited. */
export const feedUrlWords = {
  label: 'Feed URL',
  hint: 'An iCalendar (.ics) address, polled every 15 minutes. Leave empty to upload a file instead.',
  placeholder: 'https://calendar.example.edu/rooms/hall-a.ics',
};

/** The room list's choice that means "events go to rooms by their location". */
const WHOLE_BUILDING = 'building';

/**
 * A new class schedule: a name, a building, one of its rooms or the whole building, and a feed
 * URL (an uploaded file otherwise, chosen in the list once the schedule is added). Checked with
 * the contract's schema; the server checks the URL against the address rules.
 */
export function ScheduleSourceForm() {
  const [name, setName] = useState('');
  const [buildingId, setBuildingId] = useState('');
  const [roomId, setRoomId] = useState(WHOLE_BUILDING);
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveScheduleSource();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const place = roomId === WHOLE_BUILDING ? { buildingId: buildingId || null } : { roomId };
    const parsed = scheduleSourceInputSchema.safeParse({ name, url: url.trim() || null, ...place });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the form');
    setProblem(null);
    save.mutate(
      { body: parsed.data },
      {
        onSuccess: () => {
          setName('');
          setUrl('');
          toast({ title: 'Success', description: 'Class schedule added' });
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <Card className="space-y-3 p-4">
      <h2 className="text-lg font-semibold text-slate-900">Add a class schedule</h2>
      <form className="space-y-3" onSubmit={submit} noValidate>
        <Field label="Name">
          <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="Hall A timetable" />
        </Field>
        <PlaceFields
          buildingId={buildingId}
          roomId={roomId}
          onBuilding={(id) => {
            setBuildingId(id);
            setRoomId(WHOLE_BUILDING);
          }}
          onRoom={setRoomId}
        />
        <Field label={feedUrlWords.label} hint={feedUrlWords.hint}>
          <Input
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            inputMode="url"
            autoCapitalize="none"
            placeholder={feedUrlWords.placeholder}
          />
        </Field>
        {problem ? (
          <p role="alert" className="text-sm text-red-600">
            {problem}
          </p>
        ) : null}
        <Button type="submit" className="w-full" disabled={save.isPending}>
          <Plus aria-hidden className="h-4 w-4" />
          {save.isPending ? 'Adding...' : 'Add schedule'}
        </Button>
      </form>
    </Card>
  );
}

/** The building, and one of its rooms or the whole building. */
function PlaceFields(props: {
  buildingId: string;
  roomId: string;
  onBuilding: (id: string) => void;
  onRoom: (id: string) => void;
}) {
  const { buildingId, roomId, onBuilding, onRoom } = props;
  const buildings = useQuery(buildingsQuery);
  const rooms = useQuery({ ...buildingRoomsQuery(buildingId || 'none'), enabled: Boolean(buildingId) });
  const buildingName = (id: string) => buildings.data?.find((b) => b.id === id)?.name ?? id;
  const roomName = (id: string) =>
    id === WHOLE_BUILDING
      ? 'Whole building (rooms by location)'
      : (rooms.data?.find((r) => r.id === id)?.name ?? id);
  return (
    <>
      <Field label="Building">
        <NativeSelect
          value={buildingId}
          onChange={(e) => onBuilding(e.target.value)}
          options={(buildings.data ?? []).map((b) => b.id)}
          labelOf={buildingName}
          placeholder="Choose a building"
        />
      </Field>
      <Field
        label="Room"
        hint="A room's own calendar, or the whole building's: then classes go to rooms by their location"
      >
        <NativeSelect
          value={roomId}
          onChange={(e) => onRoom(e.target.value)}
          options={[WHOLE_BUILDING, ...(rooms.data ?? []).map((r) => r.id)]}
          labelOf={roomName}
          placeholder="Choose a room"
          disabled={!buildingId}
        />
      </Field>
    </>
  );
}
