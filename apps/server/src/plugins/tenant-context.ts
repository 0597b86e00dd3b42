import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StatementOwner, statementOwner } from '../db/admission.js';

/** Who a request's database work is counted against before a session is known (sign-in, public calls). */
export const ANONYMOUS_TENANT = 'anonymous';

/**
 * The tenant a request works for: the owner of the project the gate resolved, else the signed-in
 * account (a tenant is an account; the administrator counts as one), else anonymous. The one place
 * it is derived; read when a statement asks for a slot, so a request's later statements count
 * against the project's owner once the gate has run.
 */
export function tenantOf(request: FastifyRequest): string {
  return request.project?.ownerId ?? request.auth?.user.id ?? ANONYMOUS_TENANT;
}

/**
 * Runs each request in its own statement context (db/admission.ts): the request pool's fair
 * sharing learns each statement's tenant from it. First of the request hooks, so the session's and
 * the gate's own reads are counted too.
 */
export function registerTenantContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    statementOwner.run(new StatementOwner(() => tenantOf(request)), done);
  });
}
