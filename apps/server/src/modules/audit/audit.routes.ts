import type { FastifyInstance } from 'fastify';
import { auditLog } from '../../db/schema.js';
import type { ResourceDef } from '../../lib/list-query/list-query.js';
import { cappedTotalDescription, registerListRoutes } from '../../lib/list-response.js';
import { actorOf } from '../../plugins/auth.js';
import { auditEntryView } from './audit.presenter.js';
import type { AuditService } from './audit.service.js';

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

/** The audit log, read-only (the administrator; a tenant's own entries where the policy allows). */
export function auditRoutes(audit: AuditService) {
  return async (app: FastifyInstance) => {
    registerListRoutes(app, {
      path: '/audit',
      action: 'audit.read',
      tags: ['audit'],
      resource: AUDIT_RESOURCE,
      item: auditEntryView,
      totals: cappedTotalDescription('entries'),
      list: (request, query) => audit.list(actorOf(request).user, query),
      count: (request, filter) => audit.count(actorOf(request).user, filter),
    });
  };
}
