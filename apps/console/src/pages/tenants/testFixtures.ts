import { type Grant, localDate, type ProjectView, type TenantView, viewGrant } from '@gantry/shared';
import type { MockCall } from '../../test/utils';
import { project as projectFixture } from '../projects/testFixtures';

/** Test data for the tenant pages (imported by tests only). */
export const TODAY = localDate(new Date());

export const TENANT_GRANT: Grant = {
  validityPeriod: 365,
  startTime: TODAY,
  userCount: 50,
  flow: { tableCount: 100 },
  dataGathering: { point: 5000 },
  features: ['gis', 'AI'],
};

export const PLATFORM_GRANT: Grant = {
  validityPeriod: 3650,
  startTime: TODAY,
  userCount: 1000,
  flow: { tableCount: 10000 },
  features: ['gis', 'AI', 'video'],
};

export function tenant(id: string, overrides: Partial<TenantView> = {}): TenantView {
  return {
    id,
    user: id,
    name: `Tenant ${id}`,
    type: 1,
    industry: 'coal',
    grant: viewGrant(TENANT_GRANT, TODAY),
    status: true,
    createTime: '2026-01-02T03:04:05.000Z',
    remarks: null,
    logo: null,
    permissions: { ownTemplates: true, marketTemplates: true, blankProjects: true },
    isAdmin: false,
    ...overrides,
  };
}

/** A disabled, unreported project of `owner` (the project pages' fixture with these differences). */
export function project(id: string, owner: string, overrides: Partial<ProjectView> = {}): ProjectView {
  return projectFixture(id, {
    status: false,
    user: { id: owner, name: owner },
    createTime: '2026-02-03T04:05:06.000Z',
    grant: viewGrant({ ...TENANT_GRANT, userCount: 5, flow: { tableCount: 10 } }, TODAY),
    license: null,
    _stats_: [],
    online: false,
    bgColor: null,
    ...overrides,
  });
}

/** The pool of a tenant grant: the platform licence, nothing allocated. */
export const TENANT_POOL = {
  parent: viewGrant(PLATFORM_GRANT, TODAY),
  parentKind: 'platform',
  allocated: {},
  available: { userCount: 1000, 'flow.tableCount': 10000 },
  today: TODAY,
};

/** The parsed `query` parameter of a list call. */
export function listQuery(call: MockCall): Record<string, unknown> {
  const raw = new URL(call.url, 'http://test').searchParams.get('query');
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

/** Path of a call without its query string. */
export function pathOf(call: MockCall): string {
  return call.url.split('?')[0] ?? '';
}
