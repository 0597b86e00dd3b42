import { type CaptchaResponse, type LoginResponse, type SessionUser, sha256Hex } from '@gantry/shared';
import { request } from './request';

interface MessageResponse {
  message: string;
}

/** 200 when an admin password exists; 404 (code adminMissing) when not. Never toasts. */
export function checkAdmin(): Promise<{ exists: boolean }> {
  return request('rest/spm/admin/check', { noMessage: true });
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

/** The login page reports errors itself (fields on the form), so this never toasts. */
export function login(input: LoginInput): Promise<LoginResponse> {
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

export function fetchCurrentUser(): Promise<SessionUser> {
  return request('rest/spm/login/current/user');
}
