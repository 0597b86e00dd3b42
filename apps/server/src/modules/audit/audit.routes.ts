import { Readable } from 'node:stream';
import { AUDIT_EXPORT_MAX, auditExportQuery } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditLog } from '../../db/schema.js';
import { csvLine } from '../../lib/csv.js';
import type { ResourceDef } from '../../lib/list-query/list-query.js';
import { parseCountFilter } from '../../lib/list-query/list-query.js';
import { cappedTotalDescription, registerListRoutes } from '../../lib/list-response.js';
import { actorOf } from '../../plugins/auth.js';
import { type AuditEntryView, auditEntryView } from './audit.presenter.js';
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

    app.withTypeProvider<ZodTypeProvider>().get(
      '/audit/export',
      {
        config: { action: 'audit.read' },
        schema: {
          tags: ['audit'],
          description:
            `The entries the list's filter (\`query\`, as for \`GET audit/count\`) matches, newest first, at most ` +
            `${AUDIT_EXPORT_MAX.toLocaleString('en')}, streamed as CSV (UTF-8 with BOM) or JSON lines (\`format=jsonl\`).`,
          querystring: auditExportQuery,
        },
      },
      async (request, reply) => {
        const { format, query } = request.query;
        // Parsed before the answer starts: a bad filter is a 400, not a broken download.
        const filter = parseCountFilter(query, AUDIT_RESOURCE);
        const entries = audit.export(actorOf(request).user, filter);
        const stamp = new Date().toISOString().slice(0, 10);
        const lines = format === 'csv' ? csvLines(entries) : jsonLines(entries);
        return reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit-${stamp}.${format === 'csv' ? 'csv' : 'jsonl'}"`)
          .send(Readable.from(lines));
      },
    );
  };
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actorId',
  'actorName',
  'tenantId',
  'action',
  'objectType',
  'objectId',
  'ip',
  'detail',
] as const;

async function* csvLines(entries: AsyncIterable<AuditEntryView>): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(CSV_COLUMNS)}`;
  for await (const entry of entries) {
    yield csvLine(CSV_COLUMNS.map((column) => (column === 'detail' ? jsonOrEmpty(entry.detail) : entry[column])));
  }
}

async function* jsonLines(entries: AsyncIterable<AuditEntryView>): AsyncGenerator<string> {
  for await (const entry of entries) yield `${JSON.stringify(entry)}\n`;
}

const jsonOrEmpty = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));
