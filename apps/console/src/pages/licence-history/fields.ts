import type { MachineInfoRow } from '@gantry/shared';

export type HistoryField = Exclude<keyof MachineInfoRow, 'id'>;

/** The machine identity by platform (console.md §3 "Licence history"). */
export const MACHINE_FIELDS: Record<MachineInfoRow['platform'], readonly HistoryField[]> = {
  windows: ['baseBoardSerialNumber', 'biosSerialNumber', 'biosVersion', 'cpuId', 'macAddress', 'time'],
  other: ['cpuId', 'time', 'uuid', 'biosAddr'],
};

/** The licence that was applied on that machine. */
export const LICENCE_FIELDS: readonly HistoryField[] = [
  'machineCode',
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
];

/**
 * Table columns, in order, with their widths: the time and the machine code always whole, the
 * machine details cut with the full value in a title (issue 10; the table scrolls at their sum).
 */
export const TABLE_COLUMNS: readonly { field: HistoryField; width: number; whole?: boolean }[] = [
  { field: 'time', width: 180, whole: true },
  { field: 'machineCode', width: 270, whole: true },
  { field: 'platform', width: 100 },
  { field: 'cpuId', width: 180 },
  { field: 'uuid', width: 200 },
  { field: 'biosAddr', width: 120 },
  { field: 'baseBoardSerialNumber', width: 170 },
  { field: 'biosSerialNumber', width: 160 },
  { field: 'biosVersion', width: 140 },
  { field: 'macAddress', width: 170 },
  { field: 'licenceId', width: 160 },
  { field: 'startTime', width: 120, whole: true },
  { field: 'endTime', width: 120, whole: true },
  { field: 'userCount', width: 100 },
];
export const TABLE_FIELDS: readonly HistoryField[] = TABLE_COLUMNS.map((column) => column.field);
