import { and } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditLog } from '../../db/schema.js';
import { parseCountQuery, parseListQuery, type ResourceDef } from '../../lib/list-query/list-query.js';
import {
  cappedTotalDescription,
  countAnswer,
  countRouteSchema,
  LIST_QUERY_DESCRIPTION,
  listAnswer,
  listQuerystring,
} from '../../lib/list-response.js';
import { actorOf } from '../../plugins/auth.js';
import { auditScope } from '../../policy/policy.js';
import type { AuditRepository } from './audit.repository.js';
import { auditView } from './audit.service.js';

export const auditEntryView = z.object({
  id: z.number(),
  at: z.string(),
  actorId: z.string(),
  actorName: z.string(),
  tenantId: z.string().nullable(),
  action: z.string(),
  objectType: z.string(),
  objectId: z.string().nullable(),
  ip: z.string().nullable(),
  detail: z.unknown(),
});

export const AUDIT_RESOURCE: ResourceDef = {
  name: 'audit',
  id: 'id',
  fields: {
    id: { sql: auditLog.id, type: 'number', sort: true },
    at: { sql: auditLog.at, type: 'date', sort: true },
    actorId: { sql: auditLog.actorId, type: 'string', sort: true },
    actorName: { sql: auditLog.actorName, type: 'string' },
    tenantId: { sql: auditLog.tenantId, type: 'string' },
    action: { sql: auditLog.action, type: 'string', sort: true },
    objectType: { sql: auditLog.objectType, type: 'string' },
    objectId: { sql: auditLog.objectId, type: 'string' },
    ip: { sql: auditLog.ip, type: 'string' },
    detail: { sql: auditLog.detail, type: 'json', filter: false },
  },
  defaultSort: { at: -1 },
  defaultLimit: 20,
  maxLimit: 1000,
};

/** The audit log, read-only (the administrator). */
export function auditRoutes(audit: AuditRepository) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['audit'];
    app.get(
      '/audit',
      {
        config: { action: 'audit.read' },
        schema: {
          tags,
          description: `${LIST_QUERY_DESCRIPTION} ${cappedTotalDescription('entries')}`,
          querystring: listQuerystring,
          response: { 200: z.array(auditEntryView.partial()) },
        },
      },
      async (request, reply) => {
        const query = parseListQuery(request.query.query, AUDIT_RESOURCE);
        const { rows, total } = await audit.list(query, auditScope(actorOf(request).user));
        return listAnswer(reply, { items: rows.map(auditView), total }, query.fields);
      },
    );
    app.get(
      '/audit/count',
      {
        config: { action: 'audit.read' },
        schema: countRouteSchema(tags, cappedTotalDescription('entries')),
      },
      async (request, reply) => {
        const where = and(auditScope(actorOf(request).user), parseCountQuery(request.query.query, AUDIT_RESOURCE));
        return countAnswer(reply, await audit.count(where));
      },
    );
  };
}
