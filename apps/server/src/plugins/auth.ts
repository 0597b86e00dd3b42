import { pickLanguage } from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';
import type { Actor } from '../modules/audit/audit.service.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import { ACTIONS, can, NO_SESSION_NEEDED } from '../policy/policy.js';

/**
 * Bare token or `Bearer <token>`; `?token=` only on GET, for download links and the websocket
 * (spec README, contract 3), so that no change is ever made by a URL that logs and Referer carry.
 */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (header) return header.replace(/^Bearer\s+/i, '') || undefined;
  if (request.method !== 'GET') return undefined;
  const query = request.query as Record<string, unknown> | undefined;
  return typeof query?.token === 'string' && query.token ? query.token : undefined;
}

/** The signed-in caller and their address (on routes whose action needs a session). */
export function actorOf(request: FastifyRequest): Actor {
  const auth = request.auth;
  if (!auth) throw new Error('actorOf called on a route without a session');
  return { user: auth.user, ip: request.ip };
}

/**
 * Reads the caller's language and session on every request, and enforces each route's declared
 * action through the policy. API routes that declare no action fail at start-up, never open.
 */
export function registerAuth(app: FastifyInstance, auth: AuthService, apiPrefix: string): void {
  app.decorateRequest('language', 'zh_Hans');
  app.decorateRequest('auth', undefined);

  app.addHook('onRoute', (route) => {
    const action = route.config?.action;
    if (route.url.startsWith(apiPrefix) && !(action && (ACTIONS as readonly string[]).includes(action))) {
      throw new Error(`Route ${route.method} ${route.url} declares no action`);
    }
  });

  app.addHook('onRequest', async (request) => {
    request.language = pickLanguage(request.headers['accept-language']);
  });

  app.addHook('preValidation', async (request) => {
    const action = request.routeOptions.config?.action;
    if (!action) return;
    const token = tokenOf(request);
    if (token) request.auth = await auth.authenticate(token);
    if (NO_SESSION_NEEDED.has(action)) return;
    if (!request.auth) throw new AppError('unauthorized');
    if (!can(request.auth.user, action)) throw new AppError('forbidden');
  });
}
