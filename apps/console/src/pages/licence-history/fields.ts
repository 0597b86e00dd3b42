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

/** Table columns, in order (console.md §9: scroll width 1500). */
export const TABLE_FIELDS: readonly HistoryField[] = [
  'time',
  'machineCode',
  'platform',
  'cpuId',
  'uuid',
  'biosAddr',
  'baseBoardSerialNumber',
  'biosSerialNumber',
  'biosVersion',
  'macAddress',
  'licenceId',
  'startTime',
  'endTime',
  'userCount',
];
