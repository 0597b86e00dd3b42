import { translate } from '@gantry/shared';
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
import { presentRecord, presentTable, presentTableSummary } from './table.presenter.js';
import { renameBody, type TableService, tableBody } from './table.service.js';

const tags = ['tables'];
const PROJECT_HEADER = 'x-request-project';
const projectHeader = z.looseObject({ [PROJECT_HEADER]: z.string().max(64).optional() });
const tableParams = z.object({ id: z.string().min(1).max(128) });
const recordParams = tableParams.extend({ recordId: z.string().min(1).max(128) });
const anyBody = z.record(z.string(), z.unknown());

function projectOf(request: FastifyRequest): string | undefined {
  const value = request.headers[PROJECT_HEADER];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The table designer's calls (the spec names none; docs/API.md lists them) under `rest/spm/tables`,
 * the project in the `x-request-project` header as for the data layer: tables, their draft and
 * publish, and their records.
 */
export function tableRoutes(tables: TableService) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const target = (request: FastifyRequest, write: boolean) =>
      tables.target(actorOf(request).user, projectOf(request), write);
    const writer = (request: FastifyRequest) => ({ id: actorOf(request).user.id });
    const read = { config: { action: 'project.data.read' as const } };
    const write = { config: { action: 'project.data.write' as const } };

    typed.get(
      '/tables',
      { ...read, schema: { tags, headers: projectHeader, description: "The project's tables, oldest first." } },
      async (request) => (await tables.listTables(await target(request, false))).map(presentTableSummary),
    );
    typed.post(
      '/tables',
      {
        ...write,
        schema: {
          tags,
          headers: projectHeader,
          body: tableBody,
          description: "A new table with an empty draft; refused beyond the grant's flow.tableCount.",
        },
      },
      async (request) =>
        presentTable(await tables.createTable(await target(request, true), request.body, writer(request))),
    );
    typed.get(
      '/tables/:id',
      { ...read, schema: { tags, headers: projectHeader, params: tableParams } },
      async (request) => presentTable(await tables.getTable(await target(request, false), request.params.id)),
    );
    typed.patch(
      '/tables/:id',
      {
        ...write,
        schema: { tags, headers: projectHeader, params: tableParams, body: renameBody, description: 'Rename.' },
      },
      async (request) =>
        presentTable(await tables.renameTable(await target(request, true), request.params.id, request.body)),
    );
    typed.delete(
      '/tables/:id',
      {
        ...write,
        schema: { tags, headers: projectHeader, params: tableParams, description: 'The table and its records.' },
      },
      async (request) => {
        await tables.deleteTable(await target(request, true), request.params.id);
        return { id: request.params.id, message: translate('table.deleted', request.language) };
      },
    );
    typed.put(
      '/tables/:id/draft',
      {
        ...write,
        schema: {
          tags,
          headers: projectHeader,
          params: tableParams,
          body: anyBody,
          description: 'Save draft: the whole definition, checked by the designer rules; `fields` names each problem.',
        },
      },
      async (request) =>
        presentTable(await tables.saveDraft(await target(request, true), request.params.id, request.body)),
    );
    typed.get(
      '/tables/:id/publish',
      {
        ...read,
        schema: {
          tags,
          headers: projectHeader,
          params: tableParams,
          description:
            'What publishing the draft would do: each field added, removed, retyped or reconfigured with the ' +
            'record values it holds, converts and drops; `draftVersion` to send back with the publish.',
        },
      },
      async (request) => tables.publishPreview(await target(request, false), request.params.id),
    );
    typed.post(
      '/tables/:id/publish',
      {
        ...write,
        schema: {
          tags,
          headers: projectHeader,
          params: tableParams,
          body: z.object({ draftVersion: z.number().int().min(1).optional() }).optional(),
          description: 'Publish / update publish in one transaction; 409 when the draft changed since `draftVersion`.',
        },
      },
      async (request) => {
        const { table, diff } = await tables.publish(
          await target(request, true),
          request.params.id,
          request.body?.draftVersion,
        );
        return { table: presentTable(table), diff };
      },
    );

    typed.get(
      '/tables/:id/records',
      {
        ...read,
        schema: {
          tags,
          headers: projectHeader,
          params: tableParams,
          querystring: listQuerystring,
          description: `${LIST_QUERY_DESCRIPTION} Fields are named by their identifiers. ${cappedTotalDescription('records')}`,
        },
      },
      async (request, reply) => {
        const { rows, total, fields } = await tables.listRecords(
          await target(request, false),
          request.params.id,
          request.query.query,
        );
        if (total) countAnswer(reply, total);
        return rows.map((row) => presentRecord(row, fields));
      },
    );
    typed.get(
      '/tables/:id/records/count',
      { ...read, schema: { tags, headers: projectHeader, params: tableParams, querystring: listQuerystring } },
      async (request, reply) =>
        countAnswer(
          reply,
          await tables.countRecords(await target(request, false), request.params.id, request.query.query),
        ),
    );
    typed.post(
      '/tables/:id/records',
      { ...write, schema: { tags, headers: projectHeader, params: tableParams, body: anyBody } },
      async (request) =>
        presentRecord(
          await tables.createRecord(await target(request, true), request.params.id, request.body, writer(request)),
        ),
    );
    typed.patch(
      '/tables/:id/records',
      {
        ...write,
        schema: {
          tags,
          headers: projectHeader,
          params: tableParams,
          body: z.object({ ids: z.array(z.string().min(1).max(128)).min(1).max(1000), values: anyBody }),
          description: 'Batch edit: the same values (batch-edit fields only) to every record named, all or none.',
        },
      },
      async (request) => ({
        updated: await tables.batchUpdate(
          await target(request, true),
          request.params.id,
          request.body.ids,
          request.body.values,
          writer(request),
        ),
      }),
    );
    typed.get(
      '/tables/:id/records/:recordId',
      { ...read, schema: { tags, headers: projectHeader, params: recordParams } },
      async (request) =>
        presentRecord(await tables.getRecord(await target(request, false), request.params.id, request.params.recordId)),
    );
    for (const [method, whole] of [
      ['put', true],
      ['patch', false],
    ] as const) {
      typed[method](
        '/tables/:id/records/:recordId',
        { ...write, schema: { tags, headers: projectHeader, params: recordParams, body: anyBody } },
        async (request) =>
          presentRecord(
            await tables.updateRecord(
              await target(request, true),
              request.params.id,
              request.params.recordId,
              request.body,
              writer(request),
              whole,
            ),
          ),
      );
    }
    typed.delete(
      '/tables/:id/records/:recordId',
      { ...write, schema: { tags, headers: projectHeader, params: recordParams } },
      async (request) => {
        await tables.deleteRecord(await target(request, true), request.params.id, request.params.recordId);
        return { id: request.params.recordId, message: translate('table.recordDeleted', request.language) };
      },
    );
  };
}
