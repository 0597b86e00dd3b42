import type { LoginResponse, SsoLoginOptions, SsoSettings, SsoSettingsInput } from '@gantry/shared';
import { request } from './request';

/** Single sign-on (issue 34 §1): the login page's button, the ticket trade, the administrator's settings. */
const SETTINGS = 'rest/spm/sso/settings';
export const SSO_SETTINGS_KEY = ['sso-settings'] as const;

/** What the login page shows; never toasts (no button when it fails). */
export function fetchSsoOptions(): Promise<SsoLoginOptions> {
  return request('rest/spm/login/sso', { noMessage: true, ignoreUnauthorized: true });
}

/** Where the button sends the browser: the server starts the sign-in and sends it on to the provider. */
export function ssoStartUrl(returnPath: string | null): string {
  const query = returnPath ? `?return=${encodeURIComponent(returnPath)}` : '';
  return `rest/spm/login/sso/start${query}`;
}

/** The one-time ticket of the provider's answer, traded (with the HttpOnly cookie) for a session. */
export function redeemSsoTicket(ticket: string): Promise<LoginResponse & { returnPath: string }> {
  return request('rest/spm/login/sso/ticket', {
    method: 'POST',
    body: { ticket },
    noMessage: true,
    ignoreUnauthorized: true,
  });
}

export function fetchSsoSettings(): Promise<SsoSettings> {
  return request(SETTINGS);
}

/** Without `clientSecret` the stored one is kept. Validation failures come back as `fields` (no toast). */
export function saveSsoSettings(settings: SsoSettingsInput): Promise<SsoSettings> {
  return request(SETTINGS, { method: 'PUT', body: settings, noMessage: true });
}
