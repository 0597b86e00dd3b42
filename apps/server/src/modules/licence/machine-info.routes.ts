import { machineInfoRow } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parseListQuery } from '../../lib/list-query/list-query.js';
import { cappedTotalDescription, idParams, listQuerystring, registerListRoutes } from '../../lib/list-response.js';
import { EXPORT_MAX_ROWS, MACHINE_INFO_RESOURCE } from './licence-history.repository.js';
import type { LicenceHistoryService } from './licence-history.service.js';

/**
 * `core/license/machineInfo`: the licence history (machine information), read-only. Listing and
 * viewing need the right log.view, exporting log.export (console.md §3).
 */
export function machineInfoRoutes(history: LicenceHistoryService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['licence'];
    const base = '/core/license/machineInfo';

    registerListRoutes(app, {
      path: base,
      action: 'licence.history',
      tags,
      resource: MACHINE_INFO_RESOURCE,
      item: machineInfoRow,
      totals: cappedTotalDescription('rows'),
      list: (_request, query) => history.list(query),
      count: (_request, filter) => history.count(filter),
    });

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
        const csv = await history.exportCsv(parseListQuery(request.query.query, MACHINE_INFO_RESOURCE));
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="licence-history.csv"')
          .send(csv);
      },
    );

    app.get(
      `${base}/:id`,
      {
        config: { action: 'licence.history' },
        schema: { tags, params: idParams, response: { 200: machineInfoRow } },
      },
      async (request) => history.get(request.params.id),
    );
  };
}
