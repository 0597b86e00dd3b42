import type { MachineInfoRow } from '@gantry/shared';
import { toCsv } from '../../lib/csv.js';
import { HISTORY_COLUMNS, type HistoryColumn, type LicenceHistoryRow } from './licence-history.repository.js';

/** A history row as the API shows it. */
export function machineInfoView(row: LicenceHistoryRow): MachineInfoRow {
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

/** Export columns: the history's columns, in their order. */
const isColumn = (name: string): name is HistoryColumn => Object.hasOwn(HISTORY_COLUMNS, name);
const CSV_COLUMNS = Object.keys(HISTORY_COLUMNS).filter(isColumn);

/** The history as CSV text (UTF-8 with BOM): one line per row, features space-separated. */
export function historyCsv(rows: LicenceHistoryRow[]): string {
  const records = rows
    .map(machineInfoView)
    .map((view) => CSV_COLUMNS.map((column) => (column === 'features' ? view.features.join(' ') : view[column])));
  return toCsv(CSV_COLUMNS, records);
}
