import {
  type CurrentUser,
  type Grant,
  type LicenceCheck,
  type LicenceInfo,
  localDate,
  type MachineInfoRow,
  type MachineView,
  viewGrant,
} from '@gantry/shared';
import { ADMIN } from '../../test/utils';

/** Test data for the licence pages (imported by tests only). */
export const TODAY = localDate(new Date());
export const MACHINE_CODE = 'ABCDE-FGHJK-MNPQR-STVWX-YZ012';

export const LICENCE_GRANT: Grant = {
  validityPeriod: 365,
  startTime: TODAY,
  userCount: 100,
  flow: { tableCount: 500 },
  dataGathering: { point: 2000 },
  features: ['gis', 'DST', 'Oauth'],
};

export function licenceInfo(overrides: Partial<LicenceInfo> = {}): LicenceInfo {
  return {
    id: 'platform-spm',
    licenceId: 'LIC-2026-001',
    product: 'platform-spm',
    machineCode: MACHINE_CODE,
    issuedAt: '2026-01-01T08:00:00.000Z',
    licensee: 'Acme Industrial',
    keyId: '0123456789abcdef',
    development: false,
    grant: viewGrant(LICENCE_GRANT, TODAY),
    state: 'valid',
    reason: null,
    remainingDays: 365,
    reminder: false,
    allocated: { userCount: 40, 'flow.tableCount': 100 },
    used: { userCount: 10, 'flow.tableCount': 25 },
    installedAt: '2026-01-02T09:30:00.000Z',
    ...overrides,
  };
}

export const MACHINE: MachineView = {
  machineCode: MACHINE_CODE,
  machine: {
    platform: 'other',
    cpuId: 'cpu-1',
    uuid: 'uuid-1',
    biosAddr: 'SeaBIOS 1.16',
    baseBoardSerialNumber: null,
    biosSerialNumber: null,
    biosVersion: null,
    macAddress: null,
  },
};

export function currentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  const { token: _token, ...profile } = ADMIN;
  return {
    ...profile,
    grant: viewGrant(LICENCE_GRANT, TODAY),
    features: ['gis', 'DST', 'Oauth'],
    rights: ['log.view', 'log.export'],
    evaluation: false,
    ...overrides,
  };
}

export function licenceCheck(overrides: Partial<LicenceCheck> = {}): LicenceCheck {
  const { grant, product, machineCode, issuedAt, licensee, keyId, development } = licenceInfo();
  return {
    licence: {
      licenceId: 'LIC-2026-002',
      product,
      machineCode,
      issuedAt,
      licensee,
      keyId,
      development,
      grant: { ...grant, userCount: 200 },
    },
    changes: {
      first: false,
      measures: [{ path: 'userCount', before: 100, after: 200 }],
      period: [{ field: 'validityPeriod', before: 365, after: 730 }],
      featuresAdded: ['video'],
      featuresRemoved: ['DST'],
    },
    applied: false,
    ...overrides,
  };
}

export function historyRow(id: string, overrides: Partial<MachineInfoRow> = {}): MachineInfoRow {
  return {
    id,
    time: '2026-03-01T10:00:00.000Z',
    machineCode: MACHINE_CODE,
    platform: 'other',
    cpuId: `cpu-${id}`,
    uuid: `uuid-${id}`,
    biosAddr: 'SeaBIOS 1.16',
    baseBoardSerialNumber: null,
    biosSerialNumber: null,
    biosVersion: null,
    macAddress: null,
    licenceId: `LIC-${id}`,
    product: 'platform-spm',
    keyId: '0123456789abcdef',
    issuedAt: '2026-02-28T00:00:00.000Z',
    licensee: 'Acme Industrial',
    startTime: '2026-03-01',
    endTime: '2027-03-01',
    validityPeriod: 365,
    userCount: 100,
    features: ['gis'],
    appliedBy: 'admin',
    ...overrides,
  };
}
