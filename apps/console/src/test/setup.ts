// Component-test setup: i18n (zh_Hans, the default), a clean DOM and clean storage for every test.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import i18n from '../i18n';
import { bindFeedback } from '../services/feedback';
import { bindNavigate } from '../services/navigation';

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
