import { type Grant, localDate, type ProjectView, viewGrant } from '@gantry/shared';

/** Test data for the project pages (imported by tests only). */
export const GRANT: Grant = {
  validityPeriod: 365,
  startTime: localDate(new Date()),
  userCount: 20,
  flow: { tableCount: 10 },
  dataGathering: { point: 2000 },
  features: ['gis'],
};

export function project(id: string, overrides: Partial<ProjectView> = {}): ProjectView {
  return {
    id,
    name: `Project ${id}`,
    status: true,
    user: { id: 'acme', name: 'Acme' },
    createTime: '2026-01-02T03:04:05.000Z',
    industry: 'coal',
    grant: viewGrant(GRANT, localDate(new Date())),
    license: { userCount: 5, dataGathering: { point: 500 } },
    licenseReportedAt: null,
    _stats_: [
      { type: 'device', count: 3, online: 1 },
      { type: 'gateway', count: 2, online: 2 },
    ],
    online: true,
    hasSSO: false,
    remarks: null,
    bgColor: '#e6f4ff',
    domain: null,
    isUseDomain: false,
    isUseHttps: false,
    port: null,
    advanced: { mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] },
    projectType: 'blank',
    type: null,
    planId: null,
    logo: null,
    extra: {},
    certificate: null,
    ...overrides,
  };
}

export const projects = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => project(`p${String(from + i).padStart(3, '0')}`));
