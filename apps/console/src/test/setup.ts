// Component-test setup: i18n (zh_Hans, the default), a clean DOM and clean storage for every test.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import i18n, { loadLanguage } from '../i18n';
import { bindFeedback } from '../services/feedback';
import { bindNavigate } from '../services/navigation';

// both languages' texts (the console loads only the one shown)
beforeAll(() => Promise.all([loadLanguage('zh_Hans'), loadLanguage('en')]));

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  window.location.hash = '';
  await i18n.changeLanguage('zh_Hans');
});

afterEach(() => {
  cleanup();
  bindNavigate(null);
  bindFeedback(null);
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
