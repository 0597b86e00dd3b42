import { DEFAULT_SETTINGS } from '@gantry/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import CrossRequestPage from '.';

describe('cross-origin switch', () => {
  it('saves enableCors with PATCH at once', async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'GET') return { body: DEFAULT_SETTINGS };
      return { body: { ...DEFAULT_SETTINGS, ...(call.body as object) } };
    });
    signIn();
    renderPage(<CrossRequestPage />, { path: '/app/crossRequest' });
    const toggle = await screen.findByTestId('cors-switch');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByTestId('cors-switch').getAttribute('aria-checked')).toBe('true'));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ enableCors: true });
  });
});
