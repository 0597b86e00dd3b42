import type { LoginResponse } from '@gantry/shared';
import { useSyncExternalStore } from 'react';

/** Where the signed-in user (with its token) is kept: localStorage with remember-me, else sessionStorage. */
export const USER_KEY = 'gantry.user';

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; user: LoginResponse | null } = { raw: null, user: null };

function storages(): Storage[] {
  const list: Storage[] = [];
  try {
    list.push(localStorage);
  } catch {
    // unavailable
  }
  try {
    list.push(sessionStorage);
  } catch {
    // unavailable
  }
  return list;
}

function isLoginResponse(value: unknown): value is LoginResponse {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.token === 'string' && typeof v.id === 'string' && typeof v.username === 'string';
}

function readRaw(): string | null {
  for (const storage of storages()) {
    const raw = storage.getItem(USER_KEY);
    if (raw) return raw;
  }
  return null;
}

/** The stored user, or null when signed out. Stable between changes (for useSyncExternalStore). */
export function getUser(): LoginResponse | null {
  const raw = readRaw();
  if (raw === cache.raw) return cache.user;
  let user: LoginResponse | null = null;
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      user = isLoginResponse(parsed) ? parsed : null;
    } catch {
      user = null;
    }
  }
  cache = { raw, user };
  return user;
}

export function getToken(): string | null {
  return getUser()?.token ?? null;
}

function emit(): void {
  for (const listener of listeners) listener();
}

export function setUser(user: LoginResponse, remember: boolean): void {
  leftDeliberately = false;
  for (const storage of storages()) storage.removeItem(USER_KEY);
  const target = remember ? localStorage : sessionStorage;
  target.setItem(USER_KEY, JSON.stringify(user));
  emit();
}

/** Refresh the stored user's profile (name, role, protected route) where it is stored, keeping the token. */
export function updateUser(profile: Partial<Omit<LoginResponse, 'token'>>): void {
  const current = getUser();
  if (!current) return;
  const next = { ...current, ...profile, token: current.token };
  const changed = (Object.keys(profile) as (keyof LoginResponse)[]).some((key) => next[key] !== current[key]);
  if (!changed) return;
  for (const storage of storages()) {
    if (storage.getItem(USER_KEY)) storage.setItem(USER_KEY, JSON.stringify(next));
  }
  emit();
}

/** Set when the user chose to leave (logout, password change): no ?redirect back to where they were. */
let leftDeliberately = false;

export function clearUser(options: { deliberate?: boolean } = {}): void {
  leftDeliberately = options.deliberate ?? false;
  for (const storage of storages()) storage.removeItem(USER_KEY);
  emit();
}

export function signedOutDeliberately(): boolean {
  return leftDeliberately;
}

/** The login page has been reached: later redirects to it carry ?redirect again. */
export function forgetDeliberateSignOut(): void {
  leftDeliberately = false;
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === USER_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The signed-in user, re-rendering on sign-in and sign-out. */
export function useSessionUser(): LoginResponse | null {
  return useSyncExternalStore(subscribe, getUser, getUser);
}
