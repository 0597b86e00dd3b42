import {
  type ApiTokenCreated,
  type ApiTokenView,
  type CreateApiTokenBody,
  type LoginAnswer,
  type LoginResponse,
  type PendingSignIn,
  type RecoveryCodesResponse,
  sha256Hex,
  type TotpSetupResponse,
  type TotpStatus,
} from '@gantry/shared';
import { request } from './request';

/** Two-factor sign-in and API tokens (issue 34 §2–3): the calls of the login page and the personal centre. */

export const isPendingSignIn = (answer: LoginAnswer): answer is PendingSignIn => 'pendingToken' in answer;

/** The second step of a sign-in: the app's code or a recovery code. The page shows errors itself. */
export function signInWithCode(pendingToken: string, code: string): Promise<LoginResponse> {
  return request('rest/spm/login/totp', {
    method: 'POST',
    body: { pendingToken, code },
    noMessage: true,
    ignoreUnauthorized: true,
  });
}

/** A required account's set-up during sign-in. */
export function startSetupSigningIn(pendingToken: string): Promise<TotpSetupResponse> {
  return request('rest/spm/login/totp/setup', {
    method: 'POST',
    body: { pendingToken },
    noMessage: true,
    ignoreUnauthorized: true,
  });
}

export function confirmSetupSigningIn(
  pendingToken: string,
  code: string,
): Promise<LoginResponse & RecoveryCodesResponse> {
  return request('rest/spm/login/totp/setup/confirm', {
    method: 'POST',
    body: { pendingToken, code },
    noMessage: true,
    ignoreUnauthorized: true,
  });
}

export function fetchTotpStatus(): Promise<TotpStatus> {
  return request('rest/spm/login/current/totp');
}

export function startTotpSetup(): Promise<TotpSetupResponse> {
  return request('rest/spm/login/current/totp/setup', { method: 'POST' });
}

export function confirmTotp(code: string): Promise<RecoveryCodesResponse> {
  return request('rest/spm/login/current/totp/confirm', { method: 'POST', body: { code }, noMessage: true });
}

export function turnTotpOff(password: string): Promise<{ message: string }> {
  return request('rest/spm/login/current/totp/off', {
    method: 'POST',
    body: { password: sha256Hex(password) },
    noMessage: true,
  });
}

export async function fetchOwnTokens(): Promise<ApiTokenView[]> {
  return (await request<{ items: ApiTokenView[] }>('rest/spm/login/current/tokens')).items;
}

export function createToken(body: CreateApiTokenBody): Promise<ApiTokenCreated> {
  return request('rest/spm/login/current/tokens', { method: 'POST', body });
}

export function revokeOwnToken(id: string): Promise<{ message: string }> {
  return request(`rest/spm/login/current/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The administrator's view: every account's tokens. */
export async function fetchAllTokens(): Promise<ApiTokenView[]> {
  return (await request<{ items: ApiTokenView[] }>('rest/spm/api-tokens')).items;
}

export function revokeAnyToken(id: string): Promise<{ message: string }> {
  return request(`rest/spm/api-tokens/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
