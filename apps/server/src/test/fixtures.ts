import {
  dateOfDay,
  dayNumber,
  type GrantInput,
  grantSchema,
  LICENCE_FORMAT,
  type LicenceDocument,
  PLATFORM_PRODUCT,
} from '@gantry/shared';
import { signLicence } from '../modules/licence/licence-signature.js';
import { developmentPrivateKey } from '../modules/licence/trusted-keys.js';
import type { TestApp } from './test-app.js';
import { createTestApp, TEST_MACHINE_CODE, wire } from './test-app.js';

export const SPM_URL = '/portal/rest/spm';
export const TENANT_PASSWORD = 'Tenant123';

/** Today's date as the app's clock sees it, shifted by `days`. */
export function day(app: TestApp, days = 0): string {
  const today = app.services.licence.today();
  return dateOfDay(dayNumber(today) + days);
}

export function grant(app: TestApp, overrides: Partial<GrantInput> = {}): GrantInput {
  return {
    validityPeriod: 100,
    startTime: day(app),
    userCount: 10,
    flow: { tableCount: 10 },
    dataGathering: { point: 1000 },
    features: ['gis', 'DST'],
    ...overrides,
  };
}

export const PLATFORM_GRANT: Partial<GrantInput> = {
  validityPeriod: 365,
  userCount: 1000,
  flow: { tableCount: 1000 },
  dataGathering: { point: 100000 },
  features: ['gis', 'DST', 'DI', 'AI'],
};

/** A licence file signed with the development key for the test machine (override any document field). */
export function licenceText(
  app: TestApp,
  grantOverrides: Partial<GrantInput> = {},
  document: Partial<Omit<LicenceDocument, 'grant'>> = {},
): string {
  return signLicence(
    {
      format: LICENCE_FORMAT,
      id: `L-${Math.random().toString(36).slice(2, 10)}`,
      product: PLATFORM_PRODUCT,
      machineCode: TEST_MACHINE_CODE,
      issuedAt: new Date(app.services.licence.today()).toISOString(),
      licensee: 'Test licensee',
      grant: grantSchema.parse(grant(app, { ...PLATFORM_GRANT, ...grantOverrides })),
      ...document,
    },
    developmentPrivateKey(),
  );
}

/**
 * Installs a signed platform licence straight into the database: no upload checks, no history row
 * (the upload itself is tested in platform-licence.routes.test.ts).
 */
export async function installPlatform(app: TestApp, overrides: Partial<GrantInput> = {}) {
  const text = licenceText(app, overrides);
  const { document } = JSON.parse(text) as { document: LicenceDocument };
  await app.services.licence.repo.install(document.grant, text);
}

export async function createTenant(
  app: TestApp,
  admin: string,
  id: string,
  overrides: Record<string, unknown> = {},
): Promise<void> {
  const response = await app.call('POST', `${SPM_URL}/user`, admin, {
    id,
    name: `Tenant ${id}`,
    type: 1,
    industry: 'coal',
    grant: grant(app),
    password: wire(TENANT_PASSWORD),
    password1: wire(TENANT_PASSWORD),
    ...overrides,
  });
  if (response.statusCode !== 200) throw new Error(`create tenant failed: ${response.body}`);
}

/** Makes tenant `id` (password TENANT_PASSWORD) and signs it in: its token. */
export async function signedInTenant(
  app: TestApp,
  admin: string,
  id: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  await createTenant(app, admin, id, overrides);
  return app.login(id, TENANT_PASSWORD);
}

export function projectBody(app: TestApp, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Plant',
    industry: 'coal',
    projectType: 'blank',
    grant: grant(app, { userCount: 2, flow: { tableCount: 2 }, dataGathering: { point: 100 }, features: ['gis'] }),
    ...overrides,
  };
}

export async function createProject(app: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const response = await app.call('POST', `${SPM_URL}/project`, token, projectBody(app, overrides));
  if (response.statusCode !== 200) throw new Error(`create project failed: ${response.body}`);
  return response.json<{ id: string }>();
}

/** An administrator signed in, the platform licence installed. */
export async function adminWithLicence(app: TestApp): Promise<string> {
  await app.registerAdmin();
  await installPlatform(app);
  return app.login();
}

/**
 * A fresh app, the platform licence installed, its administrator signed in and the tenants `ids` made
 * and signed in: `[app, admin token, ...tenant tokens in the order of ids]`. The caller closes it.
 */
export async function appWithTenants<const T extends readonly string[]>(
  ids: T,
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[1] = {},
): Promise<[TestApp, string, ...{ -readonly [K in keyof T]: string }]> {
  const app = await createTestApp(env, options);
  const admin = await adminWithLicence(app);
  const tenants: string[] = [];
  for (const id of ids) tenants.push(await signedInTenant(app, admin, id));
  return [app, admin, ...(tenants as { -readonly [K in keyof T]: string })];
}
