import { isId } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { NotFound } from '../components/ui/not-found';
import { Spinner } from '../components/ui/spinner';
import { totpStatusQuery } from '../features/account/api/totp';
import { AppShell } from './layout/app-shell';
import { lazyScreen } from './lazy-screen';
import { ScreenLoader } from './screen-loader';
import { useLiveUpdates } from './use-live-updates';
import { useOutboxRunner } from './offline/use-outbox-runner';

// Each screen is a chunk of its own, fetched on its first visit.
const BuildingsPage = lazyScreen(
  () => import('../features/buildings/components/buildings-page'),
  (m) => m.BuildingsPage,
);
const RoomsPage = lazyScreen(
  () => import('../features/rooms/components/rooms-page'),
  (m) => m.RoomsPage,
);
const RoomLabelsPage = lazyScreen(
  () => import('../features/rooms/components/room-labels-page'),
  (m) => m.RoomLabelsPage,
);
const RoomRoute = lazyScreen(
  () => import('./room-route'),
  (m) => m.RoomRoute,
);
const SettingsPage = lazyScreen(
  () => import('../features/monitoring/components/settings-page'),
  (m) => m.SettingsPage,
);
// Administrators' tabs of Settings, composed here so that the settings feature does not import it.
const NotificationsTab = lazyScreen(
  () => import('../features/notifications/components/notifications-tab'),
  (m) => m.NotificationsTab,
);
const ApiTokensTab = lazyScreen(
  () => import('../features/tokens/components/api-tokens-tab'),
  (m) => m.ApiTokensTab,
);
const RecentChanges = lazyScreen(
  () => import('../features/audit/components/recent-changes'),
  (m) => m.RecentChanges,
);
const ImportExportTab = lazyScreen(
  () => import('../features/inventory-csv/components/import-export-tab'),
  (m) => m.ImportExportTab,
);
// Its own chunk, fetched when the tab is opened: /settings is near the bundle budget.
const ClassSchedulesTab = lazyScreen(
  () => import('../features/schedules/components/class-schedules-tab'),
  (m) => m.ClassSchedulesTab,
);
// The classes ahead and their rooms' readiness (issue 38), reached from the buildings screen.
const BeforeClassPage = lazyScreen(
  () => import('../features/readiness/components/before-class-page'),
  (m) => m.BeforeClassPage,
);
const FleetPage = lazyScreen(
  () => import('../features/fleet/components/fleet-page'),
  (m) => m.FleetPage,
);
const ReportsPage = lazyScreen(
  () => import('../features/reports/components/reports-page'),
  (m) => m.ReportsPage,
);
const UsersPage = lazyScreen(
  () => import('../features/users/components/users-page'),
  (m) => m.UsersPage,
);
const SearchPage = lazyScreen(
  () => import('../features/search/components/search-page'),
  (m) => m.SearchPage,
);
const AccountPage = lazyScreen(
  () => import('../features/account/components/account-page'),
  (m) => m.AccountPage,
);
const NotFoundPage = lazyScreen(
  () => import('./layout/simple-pages'),
  (m) => m.NotFoundPage,
);

/**
 * The screen of the address the app was opened at, fetched as soon as this module runs: beside the
 * session check and the shell rather than after them (docs/benchmarks.md, "Web app on a phone").
 */
const firstScreens: [RegExp, { preload: () => void }][] = [
  [/^\/(buildings\/?)?$/, BuildingsPage],
  [/^\/buildings\/[^/]+\/rooms\/?$/, RoomsPage],
  [/^\/buildings\/[^/]+\/labels\/?$/, RoomLabelsPage],
  [/^\/rooms\/[^/]+\/?$/, RoomRoute],
  [/^\/search\/?$/, SearchPage],
  [/^\/reports\/?$/, ReportsPage],
  [/^\/users\/?$/, UsersPage],
  [/^\/settings\/?$/, SettingsPage],
  [/^\/settings\/fleet\/?$/, FleetPage],
  [/^\/account\/?$/, AccountPage],
];
firstScreens.find(([path]) => path.test(window.location.pathname))?.[1].preload();

/**
 * Spec section 2: the routes, shown only when signed in. An address whose id cannot be one
 * (`isId`) names nothing: no call, and no "Try again" that cannot succeed.
 */
function Routes({ isAdmin, external }: { isAdmin: boolean; external: boolean }) {
  return (
    <Switch>
      <Route path="/" component={BuildingsPage} />
      <Route path="/buildings" component={BuildingsPage} />
      <Route path="/buildings/:buildingId/rooms">
        {({ buildingId }) =>
          isId(buildingId) ? (
            <RoomsPage key={buildingId} buildingId={buildingId} />
          ) : (
            <NotFound what="Building" />
          )
        }
      </Route>
      <Route path="/buildings/:buildingId/labels">
        {({ buildingId }) =>
          isId(buildingId) ? (
            <RoomLabelsPage key={buildingId} buildingId={buildingId} />
          ) : (
            <NotFound what="Building" />
          )
        }
      </Route>
      <Route path="/rooms/:roomId">
        {({ roomId }) =>
          isId(roomId) ? (
            <RoomRoute key={roomId} roomId={roomId} isAdmin={isAdmin} />
          ) : (
            <NotFound what="Room" />
          )
        }
      </Route>
      <Route path="/settings">
        {() => (
          <SettingsPage
            notifications={isAdmin ? <NotificationsTab /> : null}
            apiTokens={<ApiTokensTab userRole={isAdmin ? 'admin' : 'user'} />}
            importExport={isAdmin ? <ImportExportTab /> : null}
            schedules={isAdmin ? <ClassSchedulesTab /> : null}
          />
        )}
      </Route>
      <Route path="/settings/fleet" component={FleetPage} />
      <Route path="/reports" component={ReportsPage} />
      <Route path="/before-class">{() => <BeforeClassPage isAdmin={isAdmin} />}</Route>
      <Route path="/users">
        {() => <UsersPage changesOf={(id) => <RecentChanges entityType="user" entityId={id} />} />}
      </Route>
      <Route path="/search" component={SearchPage} />
      <Route path="/account">{() => <AccountPage external={external} />}</Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}

interface SignedInProps {
  isAdmin: boolean;
  totpEnabled: boolean;
  /** Signs in through single sign-on. */
  external: boolean;
}

/**
 * What a signed-in user sees: the shell, and the screen the address names. An administrator
 * whom REQUIRE_ADMIN_TOTP holds to enrolment sees only the Account screen: every other call
 * would be refused.
 */
export function SignedInApp({ isAdmin, totpEnabled, external }: SignedInProps) {
  const status = useQuery({ ...totpStatusQuery, enabled: isAdmin && !totpEnabled });
  if (isAdmin && !totpEnabled && status.isPending)
    return <Spinner label="Checking your account" className="min-h-dvh" />;
  if (isAdmin && !totpEnabled && status.data?.required)
    return (
      <AppShell isAdmin={false}>
        <ScreenLoader>
          <AccountPage external={external} />
        </ScreenLoader>
      </AppShell>
    );
  return <FullApp isAdmin={isAdmin} external={external} />;
}

function FullApp({ isAdmin, external }: { isAdmin: boolean; external: boolean }) {
  useLiveUpdates();
  useOutboxRunner();
  return (
    <AppShell isAdmin={isAdmin}>
      <ScreenLoader>
        <Routes isAdmin={isAdmin} external={external} />
      </ScreenLoader>
    </AppShell>
  );
}
