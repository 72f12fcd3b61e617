import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { Spinner } from '../components/ui/spinner';
import { Toaster } from '../components/ui/toaster';
import { TooltipProvider } from '../components/ui/tooltip';
import { useCurrentUser } from '../features/auth/api/current-user';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { BuildingsPage } from '../features/buildings/components/buildings-page';
import { equipmentListQuery } from '../features/equipment/api/equipment';
import { EquipmentSection } from '../features/equipment/components/equipment-section';
import { SettingsPage } from '../features/monitoring/components/settings-page';
import { ReportsPage } from '../features/reports/components/reports-page';
import { RoomDetailPage } from '../features/rooms/components/room-detail-page';
import { RoomsPage } from '../features/rooms/components/rooms-page';
import { UsersPage } from '../features/users/components/users-page';
import { AppShell } from './layout/app-shell';
import { NotFoundPage } from './layout/simple-pages';
import { queryClient } from './query-client';

/** The room detail with its equipment: two features, composed here. */
function RoomRoute({ roomId }: { roomId: string }) {
  const equipment = useQuery(equipmentListQuery(roomId));
  return (
    <RoomDetailPage
      roomId={roomId}
      equipmentCount={equipment.data?.length}
      equipment={<EquipmentSection roomId={roomId} />}
    />
  );
}

/** Spec section 2: the routes, shown only when signed in. */
function Routes() {
  return (
    <Switch>
      <Route path="/" component={BuildingsPage} />
      <Route path="/buildings" component={BuildingsPage} />
      <Route path="/buildings/:buildingId/rooms">
        {({ buildingId }) => <RoomsPage key={buildingId} buildingId={buildingId} />}
      </Route>
      <Route path="/rooms/:roomId">{({ roomId }) => <RoomRoute key={roomId} roomId={roomId} />}</Route>
      <Route path="/settings" component={SettingsPage} />
      <Route path="/reports" component={ReportsPage} />
      <Route path="/users" component={UsersPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function AuthGate() {
  const { user, isLoading, isAdmin } = useCurrentUser();
  if (isLoading) return <Spinner label="Checking your session" className="min-h-dvh" />;
  if (!user) return <SignInPage />;
  return (
    <AppShell isAdmin={isAdmin}>
      <Routes />
    </AppShell>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <AuthGate />
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
