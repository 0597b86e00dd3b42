import {
  recordValuesBody,
  recordView,
  siteParams,
  siteRecordParams,
  siteRecordRemovedView,
  siteTableParams,
  siteTableView,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { listQuerystring } from '../../lib/list-response.js';
import { presentRecord, sendRecordPage } from '../tables/table.presenter.js';
import type { TableRow } from '../tables/table.repository.js';
import type { TableCaller, TableService } from '../tables/table.service.js';
import { backOfficeOf } from './back-office-gate.js';
import type { SiteRouteDeps } from './site-http.js';

/** A published table as the back office shows it: its fields and list settings (not its permissions or rules). */
function backOfficeTable(row: TableRow) {
  const published = row.doc.published;
  return {
    id: row.id,
    name: row.doc.name,
    title: row.doc.title ?? null,
    fields: published?.fields ?? [],
    list: published?.list ?? null,
  };
}

/**
 * The back office's tables (issue 15, issue 16 §4a) `/admin/_p_{id}/api/tables…`: the published tables
 * and their records, through the table service, under the table's record permissions (the policy's,
 * policy/record-permissions.ts) for a project user. Registered in a scope whose answers are never stored.
 */
export function backOfficeTableRoutes(deps: SiteRouteDeps & { tables: TableService }) {
  const { sites, tables } = deps;
  /**
   * The project's tables and who writes: the project administrator sees every record; a project
   * user is a member whom the table's view / add / manage rules bound (the console's "view as").
   */
  const tablesOf = async (request: FastifyRequest) => {
    const { caller, project } = backOfficeOf(request);
    const target = { projectId: project.id, collection: 'table' as const };
    let as: TableCaller = { id: caller.subject };
    if (caller.kind === 'user') {
      const owner = await sites.consoleAccount(project.ownerId);
      if (!owner) throw new AppError('notFound');
      as = await tables.callerFor(target, owner, caller.subject);
    }
    return { target, as };
  };

  const pageAnswer = { 200: z.array(recordView) };

  return async (api: FastifyInstance) => {
    const typed = api.withTypeProvider<ZodTypeProvider>();
    typed.get(
      '/admin/_p_:id/api/tables',
      { schema: { hide: true, params: siteParams, response: { 200: z.array(siteTableView) } } },
      async (request) => {
        const { target, as } = await tablesOf(request);
        return (await tables.visibleTables(target, as)).map(backOfficeTable);
      },
    );
    typed.get(
      '/admin/_p_:id/api/tables/:table/records',
      { schema: { hide: true, params: siteTableParams, querystring: listQuerystring, response: pageAnswer } },
      async (request, reply) => {
        const { target, as } = await tablesOf(request);
        return sendRecordPage(reply, await tables.listRecords(target, request.params.table, request.query.query, as));
      },
    );
    typed.post(
      '/admin/_p_:id/api/tables/:table/records',
      { schema: { hide: true, params: siteTableParams, body: recordValuesBody, response: { 200: recordView } } },
      async (request) => {
        const { target, as } = await tablesOf(request);
        return presentRecord(await tables.createRecord(target, request.params.table, request.body, as));
      },
    );
    typed.get(
      '/admin/_p_:id/api/tables/:table/records/:record',
      { schema: { hide: true, params: siteRecordParams, response: { 200: recordView } } },
      async (request) => {
        const { target, as } = await tablesOf(request);
        return presentRecord(await tables.getRecord(target, request.params.table, request.params.record, as));
      },
    );
    typed.patch(
      '/admin/_p_:id/api/tables/:table/records/:record',
      { schema: { hide: true, params: siteRecordParams, body: recordValuesBody, response: { 200: recordView } } },
      async (request) => {
        const { target, as } = await tablesOf(request);
        const { table, record } = request.params;
        return presentRecord(await tables.updateRecord(target, table, record, request.body, as, false));
      },
    );
    typed.delete(
      '/admin/_p_:id/api/tables/:table/records/:record',
      { schema: { hide: true, params: siteRecordParams, response: { 200: siteRecordRemovedView } } },
      async (request) => {
        const { target, as } = await tablesOf(request);
        await tables.deleteRecord(target, request.params.table, request.params.record, as);
        return { id: request.params.record };
      },
    );
  };
}
