import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { SiteProject } from './site.repository.js';
import type { SiteCaller, SiteService } from './site.service.js';

/**
 * The back office's sign-in gate (issue 31 §1): every call under `/admin/_p_:id/api` needs the
 * project's signed-in caller, except the calls listed in `PUBLIC_CALLS` (those that sign in). One
 * hook finds the caller (403 when the project cannot be used now, 401 without a valid back-office
 * token) and puts it on the request; a handler reads it with `backOfficeOf`. A new call is signed-in
 * unless it is added to the list, and a listed call that no route answers stops the server at start.
 */

export const BACK_OFFICE_API = '/admin/_p_:id/api';

/** The calls anyone may make: the sign-in page's state, its verification code, and signing in. */
export const PUBLIC_CALLS: ReadonlySet<string> = new Set([
  `GET ${BACK_OFFICE_API}/state`,
  `GET ${BACK_OFFICE_API}/captcha`,
  `POST ${BACK_OFFICE_API}/login`,
  `POST ${BACK_OFFICE_API}/sso`,
]);

/** A back office's signed-in caller and its project, as the gate found them. */
export interface BackOffice {
  caller: SiteCaller;
  project: SiteProject;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The back office's signed-in caller (every call under `/admin/_p_:id/api` but the public ones). */
    backOffice: BackOffice | undefined;
  }
}

/** The signed-in caller the gate put on the request; a public call has none (a bug to ask). */
export function backOfficeOf(request: FastifyRequest): BackOffice {
  const found = request.backOffice;
  if (!found) throw new Error(`${request.method} ${request.url} reads a back-office caller the gate did not resolve`);
  return found;
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  return header ? header.replace(/^Bearer\s+/i, '') || undefined : undefined;
}

function projectIdOf(request: FastifyRequest): string {
  const params = request.params;
  const id = params && typeof params === 'object' && 'id' in params ? params.id : undefined;
  return typeof id === 'string' ? id : '';
}

/** The signed-in caller of project `id`'s back office (the project usable now); else 403 / 401. */
async function signedIn(sites: SignIns, request: FastifyRequest): Promise<BackOffice> {
  const project = await sites.usable(projectIdOf(request));
  const token = tokenOf(request);
  const caller = token ? await sites.authenticate(project.id, token) : undefined;
  if (!caller) throw new AppError('unauthorized');
  return { caller, project };
}

/** What the gate asks of the sites: the project's state and the caller behind a token. */
type SignIns = Pick<SiteService, 'usable' | 'authenticate'>;

const methodsOf = (method: string | string[]) => [method].flat().filter((one) => one !== 'HEAD');

/**
 * Adds the gate (at the root, before any route): each route under `/admin/_p_:id/api` but the public
 * calls gets the hook that finds its caller, after validation (a malformed id stays 400) and before
 * its own pre-handlers and handler. Routes elsewhere are not touched.
 */
export function registerBackOfficeGate(app: FastifyInstance, sites: SignIns): void {
  app.decorateRequest('backOffice', undefined);
  const answered = new Set<string>();
  const gate: preHandlerHookHandler = (request, _reply, done) => {
    signedIn(sites, request).then(
      (found) => {
        request.backOffice = found;
        done();
      },
      (error: Error) => done(error),
    );
  };

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${BACK_OFFICE_API}/`)) return;
    const calls = methodsOf(route.method).map((method) => `${method} ${route.url}`);
    for (const call of calls) answered.add(call);
    if (calls.every((call) => PUBLIC_CALLS.has(call))) return;
    route.preHandler = [gate, ...[route.preHandler ?? []].flat()];
  });
  app.addHook('onReady', async () => {
    const stale = [...PUBLIC_CALLS].filter((call) => !answered.has(call));
    if (stale.length > 0) throw new Error(`The back office's public calls name routes that do not exist: ${stale}`);
  });
}
