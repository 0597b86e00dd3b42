import { dateOfDay, dayNumber, type GrantInput, grantSchema } from '@gantry/shared';
import type { TestApp } from './test-app.js';
import { wire } from './test-app.js';

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

/** Installs the platform licence straight into the database (the signed upload is issue 4's). */
export async function installPlatform(app: TestApp, overrides: Partial<GrantInput> = {}) {
  await app.services.licence.repo.install(
    grantSchema.parse(
      grant(app, {
        validityPeriod: 365,
        userCount: 1000,
        flow: { tableCount: 1000 },
        dataGathering: { point: 100000 },
        features: ['gis', 'DST', 'DI', 'AI'],
        ...overrides,
      }),
    ),
  );
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
