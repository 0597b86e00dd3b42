import {
  publishedView,
  publishPreviewView,
  recordBatchBody,
  recordBatchView,
  recordCallPath,
  recordCountView,
  recordValuesBody,
  recordView,
  syncPreviewView,
  tableCreateBody,
  tableDraftBody,
  tableParams,
  tablePublishBody,
  tableRecordParams,
  tableRemovedView,
  tableRenameBody,
  tableShiftBody,
  tableShiftView,
  tableSummaryView,
  tableSyncBody,
  tableView,
  translate,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cappedTotalDescription,
  countAnswer,
  LIST_QUERY_DESCRIPTION,
  listQuerystring,
} from '../../lib/list-response.js';
import { actorOf } from '../../plugins/auth.js';
import { gatedProject, projectHeaders } from '../../plugins/project-gate.js';
import { presentRecord, presentTable, presentTableSummary, sendRecordPage } from './table.presenter.js';
import type { TableService } from './table.service.js';
import type { TableShift } from './table-shift.js';

const tags = ['tables'];

const VIEW_AS_HEADER = 'x-view-as';
const recordHeaders = projectHeaders.extend({ [VIEW_AS_HEADER]: z.string().min(1).max(128).optional() });
/** A call on one table of the project. */
const oneTable = { tags, headers: projectHeaders, params: tableParams };
/** A records list or count: the table, the caller (`x-view-as`) and the query. */
const recordQuery = { tags, headers: recordHeaders, params: tableParams, querystring: listQuerystring };

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The table designer's calls (the spec names none; docs/API.md lists them) under `rest/spm/tables`,
 * the project through the project gate as for the data layer: tables, their draft and
 * publish, and their records.
 */
export function tableRoutes(tables: TableService, shift: TableShift) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const target = (request: FastifyRequest) => tables.target(gatedProject(request));
    const asSelf = (request: FastifyRequest) => ({ id: actorOf(request).user.id });
    /** The project and the caller of a record call (`x-view-as`: as that project user). */
    const caller = async (request: FastifyRequest) => {
      const project = target(request);
      return { project, as: await tables.callerFor(project, actorOf(request).user, header(request, VIEW_AS_HEADER)) };
    };
    const read = { config: { action: 'project.data.read' as const, project: 'read' as const } };
    const write = { config: { action: 'project.data.write' as const, project: 'write' as const } };

    typed.get(
      '/tables',
      {
        ...read,
        schema: {
          tags,
          headers: projectHeaders,
          description: "The project's tables, oldest first.",
          response: { 200: z.array(tableSummaryView) },
        },
      },
      async (request) => (await tables.listTables(target(request))).map(presentTableSummary),
    );
    typed.post(
      '/tables',
      {
        ...write,
        schema: {
          tags,
          headers: projectHeaders,
          body: tableCreateBody,
          description:
            "A new table with an empty draft, or with `source` a mapping table published with that table's fields; " +
            "refused beyond the grant's flow.tableCount.",
          response: { 200: tableView },
        },
      },
      async (request) => presentTable(await tables.createTable(target(request), request.body, asSelf(request))),
    );
    typed.get('/tables/:id', { ...read, schema: { ...oneTable, response: { 200: tableView } } }, async (request) =>
      presentTable(await tables.getTable(target(request), request.params.id)),
    );
    typed.patch(
      '/tables/:id',
      {
        ...write,
        schema: {
          ...oneTable,
          body: tableRenameBody,
          description: 'Rename.',
          response: { 200: tableView },
        },
      },
      async (request) => presentTable(await tables.renameTable(target(request), request.params.id, request.body)),
    );
    typed.delete(
      '/tables/:id',
      {
        ...write,
        schema: {
          ...oneTable,
          description: 'The table and its records.',
          response: { 200: tableRemovedView },
        },
      },
      async (request) => {
        await tables.deleteTable(target(request), request.params.id);
        return { id: request.params.id, message: translate('table.deleted', request.language) };
      },
    );
    typed.post(
      '/tables/:id/shift',
      {
        ...write,
        schema: {
          ...oneTable,
          body: tableShiftBody,
          description:
            'Shift table: the table with its records moved or copied (ids kept) to another project of the same ' +
            "owner, in one transaction, within the target's grant (flow.tableCount); audited.",
          response: { 200: tableShiftView },
        },
      },
      async (request) => {
        const shifted = await shift.shift(actorOf(request), gatedProject(request), request.params.id, request.body);
        const { name, project, records } = shifted;
        const message = translate('table.shifted', request.language, { name, project, records });
        return { id: shifted.id, project, mode: shifted.mode, records, message };
      },
    );
    typed.get(
      '/tables/:id/sync',
      {
        ...read,
        schema: {
          ...oneTable,
          description:
            "A mapping table's sync step: the source's fields added, removed or retyped since the last sync, " +
            'the fields confirming deletes (`mismatched`, with the records holding values), `sourceVersion` to confirm.',
          response: { 200: syncPreviewView },
        },
      },
      async (request) => tables.syncPreview(target(request), request.params.id),
    );
    typed.post(
      '/tables/:id/sync',
      {
        ...write,
        schema: {
          ...oneTable,
          body: tableSyncBody,
          description:
            "Confirm the sync: mismatched fields deleted with their values, the source's new and retyped fields " +
            "taken, in one transaction; 409 `tableSyncFailed` ('data sync exception: reason') when it cannot.",
          response: { 200: tableView },
        },
      },
      async (request) =>
        presentTable(await tables.sync(target(request), request.params.id, request.body.sourceVersion)),
    );
    typed.put(
      '/tables/:id/draft',
      {
        ...write,
        schema: {
          ...oneTable,
          body: tableDraftBody,
          description: 'Save draft: the whole definition, checked by the designer rules; `fields` names each problem.',
          response: { 200: tableView },
        },
      },
      async (request) => presentTable(await tables.saveDraft(target(request), request.params.id, request.body)),
    );
    typed.get(
      '/tables/:id/publish',
      {
        ...read,
        schema: {
          ...oneTable,
          description:
            'What publishing the draft would do: each field added, removed, retyped or reconfigured with the ' +
            'record values it holds, converts and drops; `draftVersion` to send back with the publish.',
          response: { 200: publishPreviewView },
        },
      },
      async (request) => tables.publishPreview(target(request), request.params.id),
    );
    typed.post(
      '/tables/:id/publish',
      {
        ...write,
        schema: {
          ...oneTable,
          body: tablePublishBody,
          description: 'Publish / update publish in one transaction; 409 when the draft changed since `draftVersion`.',
          response: { 200: publishedView },
        },
      },
      async (request) => {
        const { table, diff } = await tables.publish(target(request), request.params.id, request.body?.draftVersion);
        return { table: presentTable(table), diff };
      },
    );

    typed.get(
      recordCallPath('list'),
      {
        ...read,
        schema: {
          ...recordQuery,
          description: `${LIST_QUERY_DESCRIPTION} Fields are named by their identifiers. ${cappedTotalDescription('records')} Keyset paging: a full page sets the \`next-cursor\` header; \`cursor\` in the query (with the same sort, no \`skip\`) gives the rows after it.`,
          response: { 200: z.array(recordView) },
        },
      },
      async (request, reply) => {
        const { project, as } = await caller(request);
        return sendRecordPage(reply, await tables.listRecords(project, request.params.id, request.query.query, as));
      },
    );
    typed.get(
      recordCallPath('count'),
      {
        ...read,
        schema: { ...recordQuery, response: { 200: recordCountView } },
      },
      async (request, reply) => {
        const { project, as } = await caller(request);
        return countAnswer(reply, await tables.countRecords(project, request.params.id, request.query.query, as));
      },
    );
    typed.post(
      recordCallPath('create'),
      {
        ...write,
        schema: {
          tags,
          headers: recordHeaders,
          params: tableParams,
          body: recordValuesBody,
          response: { 200: recordView },
        },
      },
      async (request) => {
        const { project, as } = await caller(request);
        return presentRecord(await tables.createRecord(project, request.params.id, request.body, as));
      },
    );
    typed.patch(
      recordCallPath('batch'),
      {
        ...write,
        schema: {
          tags,
          headers: recordHeaders,
          params: tableParams,
          body: recordBatchBody,
          description: 'Batch edit: the same values (batch-edit fields only) to every record named, all or none.',
          response: { 200: recordBatchView },
        },
      },
      async (request) => {
        const { project, as } = await caller(request);
        return {
          updated: await tables.batchUpdate(project, request.params.id, request.body.ids, request.body.values, as),
        };
      },
    );
    typed.get(
      recordCallPath('get'),
      { ...read, schema: { tags, headers: recordHeaders, params: tableRecordParams, response: { 200: recordView } } },
      async (request) => {
        const { project, as } = await caller(request);
        return presentRecord(await tables.getRecord(project, request.params.id, request.params.recordId, as));
      },
    );
    for (const [method, key, whole] of [
      ['put', 'replace', true],
      ['patch', 'update', false],
    ] as const) {
      typed[method](
        recordCallPath(key),
        {
          ...write,
          schema: {
            tags,
            headers: recordHeaders,
            params: tableRecordParams,
            body: recordValuesBody,
            response: { 200: recordView },
          },
        },
        async (request) => {
          const { project, as } = await caller(request);
          return presentRecord(
            await tables.updateRecord(project, request.params.id, request.params.recordId, request.body, as, whole),
          );
        },
      );
    }
    typed.delete(
      recordCallPath('delete'),
      {
        ...write,
        schema: { tags, headers: recordHeaders, params: tableRecordParams, response: { 200: tableRemovedView } },
      },
      async (request) => {
        const { project, as } = await caller(request);
        await tables.deleteRecord(project, request.params.id, request.params.recordId, as);
        return { id: request.params.recordId, message: translate('table.recordDeleted', request.language) };
      },
    );
  };
}
