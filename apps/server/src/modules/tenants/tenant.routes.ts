import {
  enableBody,
  statusBody,
  tenantCreateBody,
  tenantPasswordBody,
  tenantPatchBody,
  tenantView,
  translate,
  verifyPasswordBody,
} from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cappedTotalDescription, idParams, registerListRoutes } from '../../lib/list-response.js';
import { actorOf } from '../../plugins/auth.js';
import { TENANT_RESOURCE } from './tenant.repository.js';
import type { TenantService } from './tenant.service.js';

/** Tenant calls of console.md §7 (`user…`). */
export function tenantRoutes(tenants: TenantService, loginRatePerMinute: number) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['tenants'];
    // They check the administrator's password: throttled like sign-in (a stolen token cannot guess at hash speed).
    const throttled = { rateLimit: { max: loginRatePerMinute, timeWindow: '1 minute' } };

    registerListRoutes(app, {
      path: '/user',
      action: 'tenant.read',
      tags,
      resource: TENANT_RESOURCE,
      item: tenantView,
      totals: cappedTotalDescription('tenants'),
      list: (request, query) => tenants.list(actorOf(request).user, query),
      count: (request, filter) => tenants.count(actorOf(request).user, filter.where),
    });

    app.get(
      '/user/:id',
      { config: { action: 'tenant.read' }, schema: { tags, params: idParams, response: { 200: tenantView } } },
      async (request) => tenants.get(actorOf(request).user, request.params.id),
    );

    app.post(
      '/user',
      { config: { action: 'tenant.write' }, schema: { tags, body: tenantCreateBody, response: { 200: tenantView } } },
      async (request) => tenants.create(actorOf(request), request.body),
    );

    app.patch(
      '/user/:id',
      {
        config: { action: 'tenant.read' },
        schema: {
          tags,
          description: 'Tenant fields (administrator), or table preferences of one’s own record (anyone).',
          params: idParams,
          body: tenantPatchBody,
          response: { 200: tenantView },
        },
      },
      async (request) => tenants.update(actorOf(request), request.params.id, request.body),
    );

    app.patch(
      '/user/:id/status',
      {
        config: { action: 'tenant.write' },
        schema: { tags, params: idParams, body: statusBody, response: { 200: tenantView } },
      },
      async (request) => tenants.setStatus(actorOf(request), request.params.id, request.body.status),
    );

    app.patch(
      '/user/:id/disable',
      { config: { action: 'tenant.write' }, schema: { tags, params: idParams, response: { 200: tenantView } } },
      async (request) => tenants.disable(actorOf(request), request.params.id),
    );

    app.patch(
      '/user/:id/enable',
      {
        config: { action: 'tenant.write' },
        schema: { tags, params: idParams, body: enableBody, response: { 200: tenantView } },
      },
      async (request) => tenants.enable(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/user/:id',
      {
        config: { action: 'tenant.write' },
        schema: { tags, params: idParams, response: { 200: z.object({ id: z.string() }) } },
      },
      async (request) => {
        await tenants.delete(actorOf(request), request.params.id);
        return { id: request.params.id };
      },
    );

    app.post(
      '/user/changepwd',
      {
        config: { action: 'tenant.write', ...throttled },
        schema: {
          tags,
          description: 'Step 1 of a tenant password change: verifies the administrator’s own password.',
          body: verifyPasswordBody,
          response: { 200: z.object({ message: z.string() }) },
        },
      },
      async (request) => {
        await tenants.verifyAdmin(actorOf(request), request.body.password);
        return { message: translate('auth.verifySucceeded', request.language) };
      },
    );

    app.put(
      '/user/:id/password',
      {
        config: { action: 'tenant.write', ...throttled },
        schema: {
          tags,
          description: 'Step 2: the tenant’s new password; the administrator’s password comes again.',
          params: idParams,
          body: tenantPasswordBody,
          response: { 200: z.object({ id: z.string() }) },
        },
      },
      async (request) => {
        const { adminPassword, password } = request.body;
        await tenants.setPassword(actorOf(request), request.params.id, adminPassword, password);
        return { id: request.params.id };
      },
    );
  };
}
