import { LOGIN_MESSAGE_KEY } from '../../services/request';

/** The message left for the login page (e.g. token expired); read once, then cleared. */
export function readLoginMessage(): string | null {
  try {
    return sessionStorage.getItem(LOGIN_MESSAGE_KEY);
  } catch {
    return null;
  }
}

export function clearLoginMessage(): void {
  try {
    sessionStorage.removeItem(LOGIN_MESSAGE_KEY);
  } catch {
    // ignore
  }
}
