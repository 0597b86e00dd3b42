import { machineInfoRow } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { toCsv } from '../../lib/csv.js';
import { parseCountQuery, parseListQuery } from '../../lib/list-query/list-query.js';
import {
  cappedTotalDescription,
  countAnswer,
  countRouteSchema,
  idParams,
  LIST_QUERY_DESCRIPTION,
  listAnswer,
  listQuerystring,
} from '../../lib/list-response.js';
import {
  EXPORT_MAX_ROWS,
  type LicenceHistoryRepository,
  type LicenceHistoryRow,
  MACHINE_INFO_RESOURCE,
} from './licence-history.repository.js';

/** A history row as the API shows it. */
export function machineInfoView(row: LicenceHistoryRow): z.infer<typeof machineInfoRow> {
  return {
    id: row.id,
    time: row.time.toISOString(),
    platform: row.platform === 'windows' ? 'windows' : 'other',
    cpuId: row.cpuId,
    uuid: row.uuid,
    biosAddr: row.biosAddr,
    baseBoardSerialNumber: row.baseBoardSerialNumber,
    biosSerialNumber: row.biosSerialNumber,
    biosVersion: row.biosVersion,
    macAddress: row.macAddress,
    machineCode: row.machineCode,
    licenceId: row.licenceId,
    product: row.product,
    keyId: row.keyId,
    issuedAt: row.issuedAt.toISOString(),
    licensee: row.licensee,
    startTime: row.startTime,
    endTime: row.endTime,
    validityPeriod: row.validityPeriod,
    userCount: row.userCount,
    features: row.features ?? [],
    appliedBy: row.appliedBy,
  };
}

/** Export columns, in order (the §3 machine fields first). */
const CSV_COLUMNS = [
  'time',
  'platform',
  'machineCode',
  'cpuId',
  'uuid',
  'biosAddr',
  'baseBoardSerialNumber',
  'biosSerialNumber',
  'biosVersion',
  'macAddress',
  'licenceId',
  'product',
  'keyId',
  'issuedAt',
  'licensee',
  'startTime',
  'endTime',
  'validityPeriod',
  'userCount',
  'features',
  'appliedBy',
] as const;

/**
 * `core/license/machineInfo`: the licence history (machine information), read-only. Listing and
 * viewing need the right log.view, exporting log.export (console.md §3).
 */
export function machineInfoRoutes(history: LicenceHistoryRepository) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['licence'];
    const base = '/core/license/machineInfo';

    app.get(
      base,
      {
        config: { action: 'licence.history' },
        schema: {
          tags,
          description: `${LIST_QUERY_DESCRIPTION} ${cappedTotalDescription('rows')}`,
          querystring: listQuerystring,
          response: { 200: z.array(machineInfoRow.partial()) },
        },
      },
      async (request, reply) => {
        const query = parseListQuery(request.query.query, MACHINE_INFO_RESOURCE);
        const { rows, total } = await history.list(query);
        return listAnswer(reply, { items: rows.map(machineInfoView), total }, query.fields);
      },
    );

    app.get(
      `${base}/count`,
      {
        config: { action: 'licence.history' },
        schema: countRouteSchema(tags, cappedTotalDescription('rows')),
      },
      async (request, reply) =>
        countAnswer(reply, await history.count(parseCountQuery(request.query.query, MACHINE_INFO_RESOURCE))),
    );

    app.get(
      `${base}/export`,
      {
        // A download link: the browser may fetch it with `?token=` (spec README, contract 3).
        config: { action: 'licence.export', tokenInQuery: true },
        schema: {
          tags,
          description: `The history as CSV (UTF-8 with BOM), filtered and sorted like the list, at most ${EXPORT_MAX_ROWS} rows.`,
          querystring: listQuerystring,
        },
      },
      async (request, reply) => {
        const query = parseListQuery(request.query.query, MACHINE_INFO_RESOURCE);
        const { rows } = await history.list({ ...query, offset: 0, limit: EXPORT_MAX_ROWS, withCount: false });
        const records = rows
          .map(machineInfoView)
          .map((r) => CSV_COLUMNS.map((c) => (c === 'features' ? r.features.join(' ') : r[c])));
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="licence-history.csv"')
          .send(toCsv([...CSV_COLUMNS], records));
      },
    );

    app.get(
      `${base}/:id`,
      {
        config: { action: 'licence.history' },
        schema: { tags, params: idParams, response: { 200: machineInfoRow } },
      },
      async (request) => {
        const row = await history.get(request.params.id);
        if (!row) throw new AppError('notFound');
        return machineInfoView(row);
      },
    );
  };
}
