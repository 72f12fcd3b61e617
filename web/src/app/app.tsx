import { QueryClientProvider } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { Spinner } from '../components/ui/spinner';
import { Toaster } from '../components/ui/toaster';
import { TooltipProvider } from '../components/ui/tooltip';
import { useCurrentUser } from '../features/auth/api/current-user';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { BuildingsPage } from '../features/buildings/components/buildings-page';
import { RoomsPage } from '../features/rooms/components/rooms-page';
import { AppShell } from './layout/app-shell';
import { NotFoundPage, PlaceholderPage } from './layout/simple-pages';
import { queryClient } from './query-client';

/** Spec section 2: the routes, shown only when signed in. */
function Routes() {
  return (
    <Switch>
      <Route path="/" component={BuildingsPage} />
      <Route path="/buildings" component={BuildingsPage} />
      <Route path="/buildings/:buildingId/rooms">
        {({ buildingId }) => <RoomsPage key={buildingId} buildingId={buildingId} />}
      </Route>
      <Route path="/rooms/:roomId">{() => <PlaceholderPage title="Room Details" />}</Route>
      <Route path="/settings">{() => <PlaceholderPage title="Settings" />}</Route>
      <Route path="/reports">{() => <PlaceholderPage title="Reports" />}</Route>
      <Route path="/users">{() => <PlaceholderPage title="User Management" />}</Route>
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
