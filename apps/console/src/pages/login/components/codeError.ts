import { isRequestError } from '../../../services/request';

/** What went wrong, as the field's text; a spent or expired sign-in starts over at the password. */
export function codeError(error: unknown, restart: () => void, fallback: string): string {
  if (isRequestError(error) && error.code === 'pendingSignInInvalid') restart();
  if (isRequestError(error) && error.fields?.code) return String(error.fields.code);
  return error instanceof Error && error.message ? error.message : fallback;
}
