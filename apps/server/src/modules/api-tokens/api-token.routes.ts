import { apiTokenCreated, apiTokenList, createApiTokenBody, messageResponse, translate } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../plugins/auth.js';
import type { ApiTokenService } from './api-token.service.js';

const byId = z.object({ id: z.string().min(1).max(64) });

/**
 * API tokens: an account's own (personal centre; a signed-in session's calls, never a token's), and
 * everyone's for the administrator.
 */
export function apiTokenRoutes(tokens: ApiTokenService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const own = { action: 'session', apiTokenRefused: true } as const;

    app.get(
      '/login/current/tokens',
      { config: own, schema: { tags: ['auth'], response: { 200: apiTokenList } } },
      async (request) => ({ items: await tokens.list(actorOf(request).user.id) }),
    );

    app.post(
      '/login/current/tokens',
      { config: own, schema: { tags: ['auth'], body: createApiTokenBody, response: { 200: apiTokenCreated } } },
      async (request) => tokens.create(actorOf(request), request.body),
    );

    app.delete(
      '/login/current/tokens/:id',
      { config: own, schema: { tags: ['auth'], params: byId, response: { 200: messageResponse } } },
      async (request) => {
        await tokens.revoke(actorOf(request), request.params.id);
        return { message: translate('apiToken.revoked', request.language) };
      },
    );

    app.get(
      '/api-tokens',
      { config: { action: 'apiToken.admin' }, schema: { tags: ['auth'], response: { 200: apiTokenList } } },
      async () => ({ items: await tokens.list() }),
    );

    app.delete(
      '/api-tokens/:id',
      {
        config: { action: 'apiToken.admin' },
        schema: { tags: ['auth'], params: byId, response: { 200: messageResponse } },
      },
      async (request) => {
        await tokens.revoke(actorOf(request), request.params.id, true);
        return { message: translate('apiToken.revoked', request.language) };
      },
    );
  };
}
