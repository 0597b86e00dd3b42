import { type CaptchaResponse, type CurrentUser, type LoginAnswer, type Right, sha256Hex } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { request } from './request';
import { updateUser, useSessionUser } from './session';

interface MessageResponse {
  message: string;
}

/** 200 when an admin password exists; 404 (code adminMissing) when not. Never toasts. */
export function checkAdmin(): Promise<{ exists: boolean }> {
  return request('rest/spm/admin/check', { noMessage: true });
}

let startCheck: Promise<{ exists: boolean }> | null = null;

/** The check made at app start, shared by whoever asks (main.tsx decides the first route, Root shows the message). */
export function checkAdminAtStart(): Promise<{ exists: boolean }> {
  startCheck ??= checkAdmin();
  return startCheck;
}

export function registerAdmin(password: string): Promise<MessageResponse> {
  return request('rest/spm/admin/register', { method: 'POST', body: { password: sha256Hex(password) } });
}

export function fetchCaptcha(username: string): Promise<CaptchaResponse> {
  return request('rest/spm/login/captcha', { query: { username }, noMessage: true, ignoreUnauthorized: true });
}

export interface LoginInput {
  username: string;
  password: string;
  remember: boolean;
  code?: string | undefined;
  codeId?: string | undefined;
}

/**
 * The login page reports errors itself (fields on the form), so this never toasts. Answers a
 * session, or the second step when the account signs in with a second factor.
 */
export function login(input: LoginInput): Promise<LoginAnswer> {
  const body: Record<string, unknown> = {
    username: input.username.trim(),
    password: sha256Hex(input.password),
    remenber: input.remember,
  };
  if (input.code) {
    body.code = input.code;
    body.codeId = input.codeId;
  }
  return request('rest/spm/login', { method: 'POST', body, noMessage: true, ignoreUnauthorized: true });
}

export function logout(): Promise<MessageResponse> {
  return request('rest/spm/login/exit', { method: 'POST', noMessage: true, ignoreUnauthorized: true });
}

export function changePassword(
  oldPassword: string,
  newPassword: string,
  newPassword2: string,
): Promise<MessageResponse> {
  return request('rest/spm/login/current/password', {
    method: 'PUT',
    body: {
      oldPassword: sha256Hex(oldPassword),
      newPassword: sha256Hex(newPassword),
      newPassword2: sha256Hex(newPassword2),
    },
    noMessage: true,
  });
}

/** The profile with the grant in force, the features usable now and the rights (log.view, log.export). */
export function fetchCurrentUser(): Promise<CurrentUser> {
  return request('rest/spm/login/current/user');
}

/**
 * The signed-in user as the server sees it. Entering /app reads it once: an expired token gets its
 * 401 (sign out, back to login) at once, and role or name changes reach the stored user.
 */
export function useCurrentUser(options: { enabled?: boolean } = {}) {
  const user = useSessionUser();
  return useQuery({
    queryKey: ['currentUser', user?.id ?? null],
    queryFn: async () => {
      const current = await fetchCurrentUser();
      updateUser({
        name: current.name,
        isAdmin: current.isAdmin,
        protectUrl: current.protectUrl,
        expiresAt: current.expiresAt,
      });
      return current;
    },
    enabled: user !== null && (options.enabled ?? true),
    staleTime: 60_000,
  });
}

/** Whether the signed-in user holds `right`; `undefined` while the profile is loading. */
export function useHasRight(right: Right): boolean | undefined {
  const { data } = useCurrentUser();
  return data ? data.rights.includes(right) : undefined;
}
