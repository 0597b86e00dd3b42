import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** `/:id` of every single-object call. */
export const idParams = z.object({ id: z.string().min(1).max(64) });

/** `?query=<JSON>` of every list and count call (spec README, contract 4). */
export const listQuerystring = z.object({ query: z.string().max(20_000).optional() });

/**
 * Shapes a list answer: only the projected fields of each item, and the total in the `count`
 * header when it was asked for.
 */
export function listAnswer<T extends object>(
  reply: FastifyReply,
  result: { items: T[]; total?: number | undefined },
  fields: string[] | undefined,
): Partial<T>[] {
  if (result.total !== undefined) reply.header('count', String(result.total));
  if (!fields) return result.items;
  return result.items.map(
    (item) =>
      Object.fromEntries(Object.entries(item).filter(([key]) => key === 'id' || fields.includes(key))) as Partial<T>,
  );
}
