import { isId } from '@cm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, ChevronRight, LogOut, UserRound } from 'lucide-react';
import { Fragment } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import { Button } from '../../components/ui/button';
import { OfflineBanner } from '../../components/ui/offline-banner';
import { cn } from '../../lib/cn';
import { signOut } from '../../features/auth/api/sign-out';
import { buildingQuery } from '../../features/buildings/api/buildings';
import { roomQuery } from '../../features/rooms/api/rooms';
import { OutboxButton } from '../offline/outbox-button';

interface Crumb {
  label: string;
  href: string;
}

/** Where the breadcrumb and the back button point, from the route and the names it names. */
function useTrail(): { back: string | null; crumbs: Crumb[] } {
  const [location] = useLocation();
  const [onRooms, roomsParams] = useRoute<{ buildingId: string }>('/buildings/:buildingId/rooms');
  const [onLabels, labelsParams] = useRoute<{ buildingId: string }>('/buildings/:buildingId/labels');
  const [onRoom, roomParams] = useRoute<{ roomId: string }>('/rooms/:roomId');
  // An id that cannot be one is a "not found" screen: nothing to ask the server.
  const room = useQuery({
    ...roomQuery(roomParams?.roomId ?? ''),
    enabled: onRoom && isId(roomParams.roomId),
  });
  const buildingId = onRooms
    ? roomsParams.buildingId
    : onLabels
      ? labelsParams.buildingId
      : room.data?.buildingId;
  const building = useQuery({ ...buildingQuery(buildingId ?? ''), enabled: isId(buildingId) });

  if (location === '/' || location === '/buildings') return { back: null, crumbs: [] };
  const crumbs: Crumb[] = [];
  if (buildingId && building.data) {
    crumbs.push({ label: 'Buildings', href: '/buildings' });
    crumbs.push({ label: building.data.name, href: `/buildings/${buildingId}/rooms` });
    if (onRoom && room.data) crumbs.push({ label: room.data.name, href: location });
    if (onLabels) crumbs.push({ label: 'QR labels', href: location });
  }
  // Spec section 2: back from a room goes to its building's rooms, or to /buildings when the
  // building is unknown; from anywhere else, to /buildings.
  // A label sheet goes back to its building's rooms, where it was opened; a screen of Settings to
  // Settings.
  const back =
    onRoom && room.data
      ? `/buildings/${room.data.buildingId}/rooms`
      : onLabels
        ? `/buildings/${labelsParams.buildingId}/rooms`
        : location.startsWith('/settings/')
          ? '/settings'
          : '/buildings';
  return { back, crumbs };
}

export function Header() {
  const queryClient = useQueryClient();
  const { back, crumbs } = useTrail();
  return (
    <header className="sticky top-0 z-40 bg-brand-900 text-white shadow-md">
      <div className="mx-auto max-w-md px-2 py-1">
        <div className="flex items-center gap-1">
          {back ? (
            <Link
              href={back}
              aria-label="Back"
              className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg hover:bg-white/15"
            >
              <ArrowLeft aria-hidden className="h-6 w-6" />
            </Link>
          ) : (
            <span className="w-2 shrink-0" />
          )}
          {/* Beside four 44 px controls, a 320 px screen has room for the title only a size down. */}
          <p className="min-w-0 flex-1 truncate text-lg font-bold max-[359px]:text-[15px] max-[359px]:tracking-tight">
            Classroom Monitor
          </p>
          <OutboxButton />
          <Link
            href="/account"
            aria-label="Account"
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg hover:bg-white/15"
          >
            <UserRound aria-hidden className="h-6 w-6" />
          </Link>
          {/* On a phone the button keeps its name but not its text, so the title is read whole. */}
          <Button
            variant="header"
            className="shrink-0 max-[429px]:px-3"
            title="Sign Out"
            onClick={() => signOut(queryClient)}
          >
            <LogOut aria-hidden className="h-5 w-5" />
            <span className="max-[429px]:sr-only">Sign Out</span>
          </Button>
        </div>
        {crumbs.length > 0 ? (
          <nav
            aria-label="Breadcrumb"
            className="flex min-w-0 items-center gap-0.5 px-1 text-sm text-white/80"
          >
            {crumbs.map((crumb, i) => (
              <Fragment key={crumb.href + i}>
                {i > 0 ? <ChevronRight aria-hidden className="h-4 w-4 shrink-0" /> : null}
                {i === crumbs.length - 1 ? (
                  <span aria-current="page" className="min-w-0 truncate font-medium text-white">
                    {crumb.label}
                  </span>
                ) : (
                  // A 44 px target, as every other control: the line is tapped on a phone.
                  <Link
                    href={crumb.href}
                    className={cn(
                      'block min-h-11 min-w-11 truncate rounded px-1 leading-11 hover:underline',
                      i === 0 && 'shrink-0',
                    )}
                  >
                    {crumb.label}
                  </Link>
                )}
              </Fragment>
            ))}
          </nav>
        ) : null}
      </div>
      {/* Inside the sticky header, so that it stays in view while a list scrolls. */}
      <OfflineBanner />
    </header>
  );
}
