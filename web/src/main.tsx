import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { queryClient } from './app/query-client';
import { registerServiceWorker } from './app/pwa/register-service-worker';
import { currentUserQuery } from './features/auth/api/current-user';
import './styles.css';

// Who is signed in decides the first screen: asked before React's first render, not during it.
void queryClient.prefetchQuery(currentUserQuery);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerServiceWorker();

// What queued edits and offline reads need, fetched while the network is surely there: a change
// made after it is gone must still be kept on the phone.
void import('./lib/offline/idb').catch(() => undefined);
