import { AppError } from '../app-error.js';

/** The 400 of every refused list query; `reason` is English and names the field or operator. */
export function badQuery(reason: string): AppError {
  return new AppError('badQuery', { params: { reason } });
}

const NAME_SHOWN = 40;

/** A client-given name inside a reason: quoted, and cut short because the reason is echoed back. */
export function quoted(name: string): string {
  const chars = Array.from(name);
  return `'${chars.length > NAME_SHOWN ? `${chars.slice(0, NAME_SHOWN).join('')}…` : name}'`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
