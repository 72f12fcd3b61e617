import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles.css';

/*
 * A screen's code is fetched on its first visit. After a release the old files are gone, so a page
 * opened before it cannot fetch them: load the page again, which brings the new release. At most
 * once a minute, so a file missing from the release itself shows its error rather than a loop.
 */
const reloadedAtKey = 'cm-reloaded-for-new-release';
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem(reloadedAtKey) ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem(reloadedAtKey, String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
