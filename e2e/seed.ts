import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEATURE_KEYS, sha256Hex } from '@gantry/shared';
import type { APIRequestContext } from '@playwright/test';
import { ADMIN_PASSWORD, FIRST_PASSWORD } from './accounts';
import { API, apiLogin, apiPatchSettings, expect } from './helpers';

/**
 * What a spec needs, set up through the real HTTP API, whatever ran before it on this server
 * (issue 10: the suites no longer depend on each other, so one failure skips nothing else).
 * Every step tolerates finding its work already done.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LICENCE = '/portal/rest/license';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Set while the administrator still has the first-run password (the first-run spec registered it and
 * has not changed it yet), in the server's data directory, which every server run starts empty. A
 * wrong password would cost a verification code for the account, so the set-up never guesses.
 */
const FIRST_RUN_MARK = path.join(
  ROOT,
  '.tmp',
  `e2e-data-${process.env.GANTRY_E2E_PORT ?? 3217}`,
  'e2e-first-run-password',
);

export function markFirstRunPassword(set: boolean): void {
  if (set) writeFileSync(FIRST_RUN_MARK, 'the administrator has the first-run password\n');
  else rmSync(FIRST_RUN_MARK, { force: true });
}

/** The local day, YYYY-MM-DD. */
export function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The administrator exists with ADMIN_PASSWORD (registered when the server has none, moved on from
 * the first-run password when that spec stopped half-way), sign-in without a code or freezing so
 * the specs' browser sign-ins cannot trip over each other. Returns an administrator token.
 */
export async function ensureAdmin(request: APIRequestContext): Promise<string> {
  const check = await request.get(`${API}/admin/check`);
  if (check.status() === 404) {
    const registered = await request.post(`${API}/admin/register`, { data: { password: sha256Hex(ADMIN_PASSWORD) } });
    expect(registered.status(), await registered.text()).toBe(200);
  }
  if (existsSync(FIRST_RUN_MARK)) {
    const first = await apiLogin(request, 'admin', FIRST_PASSWORD);
    const changed = await request.put(`${API}/login/current/password`, {
      headers: bearer(first),
      data: {
        oldPassword: sha256Hex(FIRST_PASSWORD),
        newPassword: sha256Hex(ADMIN_PASSWORD),
        newPassword2: sha256Hex(ADMIN_PASSWORD),
      },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    markFirstRunPassword(false);
  }
  const login = await request.post(`${API}/login`, {
    data: { username: 'admin', password: sha256Hex(ADMIN_PASSWORD) },
  });
  expect(login.status(), await login.text()).toBe(200);
  const token = (await login.json()).token as string;
  await apiPatchSettings(request, token, {
    captcha: 'off',
    errorLogin: { count: 0, duration: { count: 1, unit: 'm' } },
  });
  return token;
}

/** The vendor's tool, as a vendor would run it, with the development key: the licence file's text. */
export function issueDevLicence(
  machineCode: string,
  id: string,
  features: readonly string[] = FEATURE_KEYS,
  measures = { users: 500, tables: 500, points: 50_000 },
): string {
  const work = mkdtempSync(path.join(tmpdir(), 'gantry-e2e-seed-'));
  try {
    const file = path.join(work, `${id}.lic`);
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/server/src/cli/licence.ts',
        'issue',
        '--key',
        'dev',
        '--machine',
        machineCode,
        '--licensee',
        'E2E Industrial Ltd',
        '--id',
        id,
        '--start',
        localToday(),
        '--days',
        '365',
        '--users',
        String(measures.users),
        '--tables',
        String(measures.tables),
        '--points',
        String(measures.points),
        '--features',
        features.join(','),
        '--out',
        file,
      ],
      { cwd: ROOT, stdio: 'pipe' },
    );
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A valid platform licence is installed (the one there is kept; else a development one, uploaded). */
export async function ensureLicence(request: APIRequestContext, token: string): Promise<void> {
  const info = await request.get(`${LICENCE}/info`, { headers: bearer(token) });
  // 404 licenceMissing: none yet
  expect([200, 404], await info.text()).toContain(info.status());
  if (info.status() === 200 && (await info.json()).state === 'valid') return;
  const machine = await request.get(`${LICENCE}/machine`, { headers: bearer(token) });
  expect(machine.status(), await machine.text()).toBe(200);
  const text = issueDevLicence((await machine.json()).machineCode, 'e2e-seeded');
  const upload = await request.post(`${LICENCE}/upload`, {
    headers: bearer(token),
    multipart: { file: { name: 'e2e-seeded.lic', mimeType: 'application/octet-stream', buffer: Buffer.from(text) } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
}

export interface SeedGrant {
  validityPeriod?: number;
  userCount?: number;
  tableCount?: number;
  points?: number;
  screens?: number;
}

function grant(values: SeedGrant) {
  return {
    validityPeriod: values.validityPeriod ?? 30,
    startTime: localToday(),
    userCount: values.userCount ?? 1,
    flow: { tableCount: values.tableCount ?? 1 },
    dataGathering: { point: values.points ?? 10 },
    visual: { dashboardCount: values.screens ?? 1 },
    features: [],
  };
}

/** A tenant (created when missing). */
export async function ensureTenant(
  request: APIRequestContext,
  token: string,
  tenant: { id: string; name: string; password: string; remarks?: string } & SeedGrant,
): Promise<void> {
  const existing = await request.get(`${API}/user/${tenant.id}`, { headers: bearer(token) });
  if (existing.status() === 200) return;
  const created = await request.post(`${API}/user`, {
    headers: bearer(token),
    data: {
      id: tenant.id,
      name: tenant.name,
      type: 1,
      industry: 'coal',
      remarks: tenant.remarks,
      grant: grant(tenant),
      password: sha256Hex(tenant.password),
      password1: sha256Hex(tenant.password),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
}

/** A project of the token's caller (created when missing). */
export async function ensureProject(
  request: APIRequestContext,
  token: string,
  project: { id: string; name: string; remarks?: string } & SeedGrant,
): Promise<void> {
  const existing = await request.get(`${API}/project/${project.id}`, { headers: bearer(token) });
  if (existing.status() === 200) return;
  const created = await request.post(`${API}/project`, {
    headers: bearer(token),
    data: {
      id: project.id,
      name: project.name,
      industry: 'coal',
      projectType: 'blank',
      remarks: project.remarks,
      grant: grant(project),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
}

/**
 * The start of a tenant's spec: the administrator, the licence and English; a small tenant (2 users,
 * 2 tables, 20 points) signed in, and its project (each created when missing). Answers the tenant's token.
 */
export async function ensureTenantProject(
  request: APIRequestContext,
  tenant: { id: string; name: string; password: string },
  project: { id: string; name: string } & SeedGrant,
): Promise<string> {
  const adminToken = await ensureAdmin(request);
  await ensureLicence(request, adminToken);
  await apiPatchSettings(request, adminToken, { language: 'en' });
  await ensureTenant(request, adminToken, { ...tenant, userCount: 2, tableCount: 2, points: 20 });
  const token = await apiLogin(request, tenant.id, tenant.password);
  await ensureProject(request, token, project);
  return token;
}
