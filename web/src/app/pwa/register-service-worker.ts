import { registerSW } from 'virtual:pwa-register';
import { setUpdateWaiting } from './update-store';

/** A tab open for days learns of a release without a navigation (browsers check on those). */
const updateCheckMs = 60 * 60 * 1000;

/**
 * Registers the service worker that precaches every screen (docs/architecture.md, "Web app").
 * A new release installs in the background and waits: the page switches to it only when the user
 * chooses Reload in the prompt, never by itself, so no open form is lost to an update.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  // After the first screen: the worker's library and its download of every chunk wait their turn.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

function register(): void {
  let chosen = false;
  // Another tab's Reload activates the new worker for this tab too; this one still waits for its
  // own user, and then only needs loading again.
  let activeAlready = false;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  };
  const update = registerSW({
    onNeedRefresh: () =>
      setUpdateWaiting(() => {
        chosen = true;
        if (activeAlready) return reload();
        // Once the new worker has taken the page over, the page loads again from it. Workbox says
        // so itself only where the page was opened under a worker already: on the visit that
        // installed the first one, its takeover is not told as an update, and Reload did nothing.
        navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
        void update();
      }),
    onNeedReload: () => {
      if (chosen) reload();
      else activeAlready = true;
    },
    onRegisteredSW: (_url, registration) => {
      if (registration) setInterval(() => void registration.update().catch(() => {}), updateCheckMs);
    },
  });
}
