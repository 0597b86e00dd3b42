import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

/** The dotted path of the first string containing U+0000, if any. */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const found = findNul(key, path) ?? findNul(inner, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb. Refuse it at the door, for every body and query,
 * with a 400 that names the field, instead of a database error deep inside.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const field = findNul(request.query) ?? findNul(request.body) ?? findNul(request.params);
    if (field) throw new AppError('validation', { fields: { [field]: 'error.nulCharacter' } });
  });
}
