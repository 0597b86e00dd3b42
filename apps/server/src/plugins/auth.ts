import { API_TOKEN_PREFIX, isOneOf, isRecord, pickLanguage } from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import type { Actor } from '../modules/audit/audit.service.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import { ACTIONS, type Action, can, NO_SESSION_NEEDED } from '../policy/policy.js';

/**
 * Bare token or `Bearer <token>`; `?token=` only where the contract needs it (spec README, contract
 * 3): GET routes marked `tokenInQuery` (download links, the websocket). A token in a URL ends up in
 * proxy logs, history and Referer, so no other call takes one, and no change is ever made by a URL.
 */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (header) return header.replace(/^Bearer\s+/i, '') || undefined;
  if (request.method !== 'GET' || request.routeOptions.config?.tokenInQuery !== true) return undefined;
  const token = isRecord(request.query) ? request.query.token : undefined;
  // An API token only ever in the header: it lives for months, a URL is copied everywhere.
  if (typeof token !== 'string' || !token || token.startsWith(API_TOKEN_PREFIX)) return undefined;
  return token;
}

/** The caller's session (on routes whose action needs one). */
export function sessionOf(request: FastifyRequest): NonNullable<FastifyRequest['auth']> {
  const auth = request.auth;
  if (!auth) throw new Error('sessionOf called on a route without a session');
  return auth;
}

/** The signed-in caller and their address (on routes whose action needs a session). */
export function actorOf(request: FastifyRequest): Actor {
  const { user, apiToken } = sessionOf(request);
  return { user, ip: request.ip, ...(apiToken ? { apiToken: { id: apiToken.id, name: apiToken.name } } : {}) };
}

/** Methods that only read (a read-only API token may use no other). */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Reads the caller's language and session on every request, and enforces each route's declared
 * action through the policy. API routes that declare no action fail at start-up, never open.
 */
/** An API route as the route table holds it: method, path and the action it declares. */
export interface ActionRoute {
  method: string;
  url: string;
  action: Action;
}

export function registerAuth(app: FastifyInstance, auth: AuthService, apiPrefix: string): readonly ActionRoute[] {
  const routes: ActionRoute[] = [];
  app.decorateRequest('language', 'zh_Hans');
  app.decorateRequest('auth', undefined);

  app.addHook('onRoute', (route) => {
    const action = route.config?.action;
    if (route.url.startsWith(apiPrefix) && !isOneOf(ACTIONS, action)) {
      throw new Error(`Route ${route.method} ${route.url} declares no action`);
    }
    if (action) {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url, action });
    }
  });

  // Callback-style hooks: every request runs them, and an async hook costs a promise and its
  // microtasks even when it has nothing to wait for (a few µs each, measured).
  app.addHook('onRequest', (request, _reply, done) => {
    request.language = pickLanguage(request.headers['accept-language']);
    done();
  });

  /**
   * The refusal, if any, once the session (or its absence) is known. An API token is refused on
   * the account's own security calls, and a read-only one on every call but a read, public or not:
   * the one place the scope is enforced, by the method the route answers.
   */
  const refusal = (request: FastifyRequest, action: Action): AppError | undefined => {
    const apiToken = request.auth?.apiToken;
    if (apiToken) {
      if (apiToken.scope === 'read' && !READ_METHODS.has(request.method)) return new AppError('apiTokenReadOnly');
      if (request.routeOptions.config?.apiTokenRefused) return new AppError('apiTokenSessionOnly');
    }
    if (NO_SESSION_NEEDED.has(action)) return undefined;
    if (!request.auth) return new AppError('unauthorized');
    if (!can(request.auth.user, action)) return new AppError('forbidden');
    return undefined;
  };

  app.addHook('preValidation', (request, _reply, done) => {
    const action = request.routeOptions.config?.action;
    if (!action) return done();
    const token = tokenOf(request);
    if (!token) return done(refusal(request, action));
    auth.authenticate(token).then(
      (found) => {
        request.auth = found;
        done(refusal(request, action));
      },
      (error: Error) => done(error),
    );
  });
  return routes;
}
