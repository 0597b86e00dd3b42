import { AppError } from '../lib/app-error.js';
import type { DatabaseHandle } from './database.js';

/** PostgreSQL's query_canceled: statement_timeout stopped the statement. */
const QUERY_CANCELED = '57014';
/** The connection failed or the server is going away (SQLSTATE classes 08 and 57P). */
const UNAVAILABLE_STATES = /^(08|57P)/;
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT']);
/** How long after the embedded engine stopped a statement its failed callers are told so. */
const STOP_ATTRIBUTION_MS = 5_000;

/**
 * A database failure the caller should hear about in words: a statement stopped for running too
 * long (`queryTimeout`, naming the limit), or the database out of reach or restarting
 * (`databaseUnavailable`). Anything else is returned unchanged.
 */
export function mapDatabaseError(error: unknown, database: Pick<DatabaseHandle, 'limits' | 'lastStop'>): unknown {
  if (error instanceof AppError) return error;
  const seconds = Math.round(database.limits.requestMs / 100) / 10;
  let lost = false;
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = 'code' in current && typeof current.code === 'string' ? current.code : undefined;
    const message = 'message' in current && typeof current.message === 'string' ? current.message : '';
    if (code === QUERY_CANCELED) return new AppError('queryTimeout', { params: { seconds } });
    if (
      (code && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_ERRNOS.has(code))) ||
      /Connection terminated/i.test(message)
    ) {
      lost = true;
      break;
    }
    current = 'cause' in current ? current.cause : undefined;
  }
  if (!lost) return error;
  const stop = database.lastStop?.();
  if (stop?.reason === 'statement-limit' && Date.now() - stop.at < STOP_ATTRIBUTION_MS) {
    return new AppError('queryTimeout', { params: { seconds: Math.round((stop.limitMs ?? 0) / 100) / 10 } });
  }
  return new AppError('databaseUnavailable');
}
