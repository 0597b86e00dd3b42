import './app/zodJitless';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './app/App';
import { clearReloadFlag, reloadOnce } from './app/RouteError';
import { preloadRoute } from './app/router';
import { i18nReady } from './i18n';
import { checkAdminAtStart } from './services/auth';
import { isRequestError } from './services/request';

// a chunk preload failed (the console was rebuilt since this page loaded): reload once
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault();
});
window.addEventListener('load', () => setTimeout(clearReloadFlag, 10_000));

/**
 * First run: with no admin password yet, start on /regest. Decided before the router starts, so no
 * redirect of its own (to /login for a visitor without a session) can win a race with it. Root still
 * shows the message.
 */
async function firstRoute(): Promise<void> {
  try {
    await checkAdminAtStart();
  } catch (error) {
    if (isRequestError(error) && error.status === 404 && !window.location.hash.startsWith('#/regest')) {
      window.location.replace('#/regest');
    }
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing');
preloadRoute(window.location.hash);
void Promise.all([firstRoute(), i18nReady]).then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
