import { ChevronRight } from 'lucide-react';
import { type ReactNode } from 'react';
import { Link } from 'wouter';
import { downFor } from '../../lib/health';

type Device = { name: string; ipAddress: string | null; since: string };
type Place<D> = {
  id: string;
  name: string;
  rooms: { id: string; name: string; floor: string; devices: D[] }[];
};

/**
 * A list of the banner by building, then room, each room a link. The faults follow the offline
 * list in the same dialog: their buildings are a level down, named apart.
 */
export function ByPlace<D extends Device & { id: string }>({
  buildings,
  nested = false,
  now,
  testId,
  onNavigate,
  badge,
  details,
}: {
  buildings: Place<D>[];
  nested?: boolean;
  now: number;
  testId: string;
  onNavigate: () => void;
  badge: (device: D) => ReactNode;
  details?: (device: D) => ReactNode;
}) {
  return buildings.map((building) => (
    <section key={building.id} aria-label={nested ? `${building.name}, faults` : building.name}>
      {nested ? (
        <h4 className="text-sm font-semibold text-slate-700">{building.name}</h4>
      ) : (
        <h3 className="text-base font-semibold text-slate-900">{building.name}</h3>
      )}
      <ul className="mt-2 space-y-3">
        {building.rooms.map((room) => (
          <ProblemRoom key={room.id} room={room} onNavigate={onNavigate}>
            {room.devices.map((device) => (
              <ProblemDevice key={device.id} device={device} now={now} testId={testId} badge={badge(device)}>
                {details?.(device)}
              </ProblemDevice>
            ))}
          </ProblemRoom>
        ))}
      </ul>
    </section>
  ));
}

/** A room in the banner's lists: its name links to the room, its devices below. */
function ProblemRoom({
  room,
  onNavigate,
  children,
}: {
  room: { id: string; name: string; floor: string };
  onNavigate: () => void;
  children: ReactNode;
}) {
  return (
    <li className="rounded-lg border border-slate-200">
      <Link
        href={`/rooms/${room.id}`}
        onClick={onNavigate}
        className="flex min-h-11 items-center justify-between gap-2 rounded-t-lg bg-slate-50 px-3 py-2 text-sm font-medium text-brand-800 hover:bg-slate-100"
      >
        <span>
          {room.name} <span className="font-normal text-slate-600">· Floor {room.floor}</span>
        </span>
        <ChevronRight aria-hidden className="h-4 w-4" />
      </Link>
      <ul className="divide-y divide-slate-100">{children}</ul>
    </li>
  );
}

/**
 * A device in the banner's lists: its name and state, what more there is to say, then its address
 * and for how long it has been so, as of `now` (when the list opened); the exact time on hover.
 */
function ProblemDevice({
  device,
  badge,
  now,
  children,
  testId,
}: {
  device: Device;
  badge: ReactNode;
  now: number;
  children?: ReactNode;
  testId: string;
}) {
  return (
    <li className="px-3 py-2 text-sm" data-testid={testId}>
      <div className="flex items-center justify-between gap-2">
        <span className="font-medium break-words text-slate-900">{device.name}</span>
        {badge}
      </div>
      {children}
      <div className="mt-0.5 flex flex-wrap justify-between gap-x-3 text-slate-600">
        <span className="font-mono text-xs">{device.ipAddress ?? 'No address'}</span>
        <time dateTime={device.since} title={new Date(device.since).toLocaleString()}>
          for {downFor(device.since, now)}
        </time>
      </div>
    </li>
  );
}
