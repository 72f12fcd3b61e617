import { QueryClientProvider } from '@tanstack/react-query';
import { type User } from '@cm/contracts';
import { Suspense, useEffect, useState } from 'react';
import { Spinner } from '../components/ui/spinner';
import { useToasts } from '../components/ui/use-toast';
import { useCurrentUser } from '../features/auth/api/current-user';
import { errorMessage } from '../lib/api';
import { useRetryWhenOnline } from '../lib/online';
import { queryClient } from './query-client';
import { lazyScreen } from './lazy-screen';
import { UpdatePrompt } from './pwa/update-prompt';
import { ScreenLoader } from './screen-loader';

/*
 * The first load carries only what decides between signing in and the app (initial JavaScript
 * budget, docs/benchmarks.md). The rest, screens, tooltips and toasts, comes in chunks of its own.
 */
const SignInPage = lazyScreen(
  () => import('../features/auth/components/sign-in-page'),
  (m) => m.SignInPage,
);
const SignedInApp = lazyScreen(
  () => import('./signed-in-app'),
  (m) => m.SignedInApp,
);
// Most visits are signed in: the shell's code comes while the session is checked, not after.
// Signed out, the sign-in screen does not wait for it (a chunk of its own).
SignedInApp.preload();
// Toasts live in a store, so one raised before this arrives shows once it has. Its code comes
// after the first screen is drawn (docs/benchmarks.md, the first screen's JavaScript).
const Toaster = lazyScreen(
  () => import('../components/ui/toaster'),
  (m) => m.Toaster,
);

const SessionEndedDialog = lazyScreen(
  () => import('./session-ended-dialog'),
  (m) => m.SessionEndedDialog,
);

/**
 * Signed out at the start: the sign-in screen. A session that ends later (a 401 anywhere makes the
 * app ask again) keeps the screen, with whatever form is open and what was typed in it, under a
 * sign-in dialog; signing in there carries on where the person was. Signing out reloads the page.
 */
function AuthGate() {
  const { user, isLoading, checkFailed, checkAgain } = useCurrentUser();
  const [lastUser, setLastUser] = useState<User | null>(null);
  if (user && user !== lastUser) setLastUser(user);
  const shown = user ?? lastUser;
  const checking = <Spinner label="Checking your session" className="min-h-dvh" />;
  if (isLoading && !shown) return checking;
  if (checkFailed && !shown) return <SessionCheckFailed error={checkFailed} onRetry={checkAgain} />;
  if (!shown)
    return (
      <ScreenLoader>
        <SignInPage />
      </ScreenLoader>
    );
  return (
    <>
      <Suspense fallback={checking}>
        <SignedInApp
          isAdmin={shown.role === 'admin'}
          totpEnabled={shown.totpEnabled}
          external={shown.external}
        />
      </Suspense>
      {user ? null : (
        <Suspense fallback={null}>
          <SessionEndedDialog />
        </Suspense>
      )}
    </>
  );
}

/**
 * The server could not say who is signed in (it answered 503, or there is no network and nothing
 * kept on the phone). A sign-in form here would fail too and suggest the session had ended, so the
 * app says what happened and asks again by itself.
 */
function SessionCheckFailed({ error, onRetry }: { error: Error; onRetry: () => unknown }) {
  useRetryWhenOnline(onRetry, 10_000);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-xl font-semibold text-slate-900">Classroom Monitor is not answering</h1>
      <p role="alert" className="text-slate-700">
        {errorMessage(error)} It is asked again every 10 seconds.
      </p>
      <button
        type="button"
        onClick={() => void onRetry()}
        className="min-h-11 rounded-md border border-slate-300 bg-white px-4 font-medium text-slate-900"
      >
        Try again
      </button>
    </main>
  );
}

function Toasts() {
  const raised = useToasts().length > 0;
  // Fetched once the first screen is drawn, so that a toast raised later, offline too, has it.
  useEffect(() => Toaster.preload(), []);
  if (!raised) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <UpdatePrompt />
      <AuthGate />
      <Toasts />
    </QueryClientProvider>
  );
}
