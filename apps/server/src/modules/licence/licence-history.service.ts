import { AppError } from '../../lib/app-error.js';
import type { ListQuery, ParsedFilter } from '../../lib/list-query/list-query.js';
import { historyCsv, machineInfoView } from './licence-history.presenter.js';
import { EXPORT_MAX_ROWS, type LicenceHistoryRepository } from './licence-history.repository.js';

/**
 * The licence history, read-only: who may read or export it is the route's declared action
 * (rights log.view / log.export, policy.ts); the rows are the whole platform's.
 */
export class LicenceHistoryService {
  constructor(private readonly repo: LicenceHistoryRepository) {}

  async list(query: ListQuery) {
    const { rows, total } = await this.repo.list(query);
    return { items: rows.map(machineInfoView), total };
  }

  count(filter: ParsedFilter) {
    return this.repo.count(filter.where);
  }

  async get(id: string) {
    const row = await this.repo.get(id);
    if (!row) throw new AppError('notFound');
    return machineInfoView(row);
  }

  /** The rows the query selects (at most EXPORT_MAX_ROWS, from the first), as CSV text. */
  async exportCsv(query: ListQuery): Promise<string> {
    const { rows } = await this.repo.list({ ...query, offset: 0, limit: EXPORT_MAX_ROWS, withCount: false });
    return historyCsv(rows);
  }
}
