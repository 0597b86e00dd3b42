import type { MachineInfoRow } from '@gantry/shared';
import { eq, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { licenceHistory } from '../../db/schema.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { ListQuery, ResourceDef } from '../../lib/list-query/list-query.js';
import type { FieldDef } from '../../lib/list-query/types.js';

export type LicenceHistoryRow = typeof licenceHistory.$inferSelect;
export type LicenceHistoryEntry = Omit<typeof licenceHistory.$inferInsert, 'time'>;

const h = licenceHistory;
/**
 * The history's columns, in export order (the §3 machine fields first): the one list the list
 * resource, the CSV export and (checked by its type) the answer follow. Every field of the wire row
 * but `id` must be here.
 */
export const HISTORY_COLUMNS = {
  time: { sql: h.time, type: 'date', sort: true },
  platform: { sql: h.platform, type: 'string' },
  machineCode: { sql: h.machineCode, type: 'string' },
  cpuId: { sql: h.cpuId, type: 'string' },
  uuid: { sql: h.uuid, type: 'string' },
  biosAddr: { sql: h.biosAddr, type: 'string' },
  baseBoardSerialNumber: { sql: h.baseBoardSerialNumber, type: 'string' },
  biosSerialNumber: { sql: h.biosSerialNumber, type: 'string' },
  biosVersion: { sql: h.biosVersion, type: 'string' },
  macAddress: { sql: h.macAddress, type: 'string' },
  licenceId: { sql: h.licenceId, type: 'string' },
  product: { sql: h.product, type: 'string' },
  keyId: { sql: h.keyId, type: 'string' },
  issuedAt: { sql: h.issuedAt, type: 'date' },
  licensee: { sql: h.licensee, type: 'string' },
  startTime: { sql: h.startTime, type: 'string' },
  endTime: { sql: h.endTime, type: 'string' },
  validityPeriod: { sql: h.validityPeriod, type: 'number' },
  userCount: { sql: h.userCount, type: 'number' },
  features: { sql: h.features, type: 'json', filter: false },
  appliedBy: { sql: h.appliedBy, type: 'string' },
} as const satisfies Record<Exclude<keyof MachineInfoRow, 'id'>, FieldDef>;
export type HistoryColumn = keyof typeof HISTORY_COLUMNS;

/** `core/license/machineInfo`: the licence history as a list resource. */
export const MACHINE_INFO_RESOURCE: ResourceDef = {
  name: 'machineInfo',
  id: 'id',
  fields: { id: { sql: h.id, type: 'string' }, ...HISTORY_COLUMNS },
  defaultSort: { time: -1 },
  defaultLimit: 20,
  maxLimit: 1000,
};

/** Rows an export writes at most. */
export const EXPORT_MAX_ROWS = 10_000;

/** Applied licences with the machine information of the time (all SQL). */
export class LicenceHistoryRepository {
  constructor(private readonly db: Database) {}

  async add(entry: LicenceHistoryEntry, db: Database = this.db, time?: Date): Promise<void> {
    await db.insert(licenceHistory).values({ ...entry, ...(time ? { time } : {}) });
  }

  async list(query: ListQuery): Promise<{ rows: LicenceHistoryRow[]; total?: ListTotal }> {
    const rows = await this.db
      .select()
      .from(licenceHistory)
      .where(query.where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
    return query.withCount ? { rows, total: await this.count(query.where) } : { rows };
  }

  /** Exact up to COUNT_CAP rows (one row per applied licence: always, in practice). */
  count(where: SQL | undefined): Promise<ListTotal> {
    return cappedCount(this.db, licenceHistory, where);
  }

  async get(id: string): Promise<LicenceHistoryRow | undefined> {
    const [row] = await this.db.select().from(licenceHistory).where(eq(licenceHistory.id, id));
    return row;
  }
}
