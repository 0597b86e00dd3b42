// Component-test setup: i18n (zh_Hans, the default), a clean DOM and clean storage for every test.
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import i18n, { loadLanguage } from '../i18n';
import { bindFeedback, closeAllToasts } from '../services/feedback';
import { bindNavigate } from '../services/navigation';

// findBy… and waitFor wait up to 5 s (the default 1 s is short for a rerender of a page of antd
// components when the test runs beside other suites on a busy two-core machine).
configure({ asyncUtilTimeout: 5_000 });

// both languages' texts (the console loads only the one shown)
beforeAll(() => Promise.all([loadLanguage('zh_Hans'), loadLanguage('en')]));

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  window.location.hash = '';
  await i18n.changeLanguage('zh_Hans');
});

let staticToasts = false;

afterEach(() => {
  // antd's static toasts live in a React root of their own, which cleanup() does not unmount: their
  // close timers would render after the test (and after the file's DOM is gone).
  staticToasts = closeAllToasts() || staticToasts;
  cleanup();
  bindNavigate(null);
  bindFeedback(null);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// React finishes a commit in a later macrotask (its scheduler's setImmediate), and closing toasts
// animates out: let that run while the file's DOM still exists, or it throws 'window is not defined'
// after the environment is torn down.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, staticToasts ? 1_000 : 50)));
