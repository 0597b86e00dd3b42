import type { FastifyReply } from 'fastify';

/** Adds `field` to the answer's `Vary`, keeping what is there (unless it is there already, or `*`). */
export function addToVary(reply: FastifyReply, field: string): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', field);
    return;
  }
  const current = Array.isArray(vary) ? vary.join(', ') : String(vary);
  const present = current.split(',').some((name) => {
    const trimmed = name.trim().toLowerCase();
    return trimmed === '*' || trimmed === field.toLowerCase();
  });
  if (!present) reply.header('vary', current ? `${current}, ${field}` : field);
}
