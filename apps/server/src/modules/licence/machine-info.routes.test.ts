/**
 * The licence history (machine information, console.md §3) at core/license/machineInfo: list with
 * the list layer (count header, sort, filter, projection), one row, count, CSV export, and who may.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { licenceText, signedInTenant } from '../../test/fixtures.js';
import { createTestApp, multipartFile, TEST_MACHINE, TEST_MACHINE_CODE, type TestApp } from '../../test/test-app.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import { UserRepository } from '../users/user.repository.js';
import { LicenceHistoryRepository } from './licence-history.repository.js';
import { type MachineIdentity, machineCodeOf, machineFieldsOf } from './machine-identity.js';
import { PlatformLicenceService } from './platform-licence.service.js';
import { trustedKeys } from './trusted-keys.js';

const BASE = '/portal/rest/core/license/machineInfo';
const HOUR_MS = 3_600_000;
const FORMULA = '=HYPERLINK("http://evil.example","x")';
const CSV_HEADER = [
  'time',
  'platform',
  'machineCode',
  'cpuId',
  'uuid',
  'biosAddr',
  'baseBoardSerialNumber',
  'biosSerialNumber',
  'biosVersion',
  'macAddress',
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
].join(',');

interface Row {
  id: string;
  time: string;
  licenceId: string;
  licensee: string | null;
  userCount: number;
  platform: string;
  [field: string]: unknown;
}

let app: TestApp;
let admin: string;
/** When each licence was applied (the injected clock), by licence id. */
const appliedAt: Record<string, string> = {};

async function upload(text: string): Promise<void> {
  const form = multipartFile('file', 'platform.lic', Buffer.from(text), 'application/octet-stream');
  const response = await app.app.inject({
    method: 'POST',
    url: '/portal/rest/license/upload',
    headers: { ...form.headers, authorization: `Bearer ${admin}` },
    payload: form.payload,
  });
  if (response.statusCode !== 200) throw new Error(`upload failed: ${response.body}`);
}

function get(path: string, token: string | null = admin, query?: unknown): Promise<LightMyRequestResponse> {
  const search = query === undefined ? '' : `?query=${encodeURIComponent(JSON.stringify(query))}`;
  return app.app.inject({
    method: 'GET',
    url: `${BASE}${path}${search}`,
    headers: token ? { authorization: `Bearer ${token}`, 'accept-language': 'en' } : {},
  });
}

const list = async (query?: unknown) => (await get('', admin, query)).json<Row[]>();
const ids = (rows: Row[]) => rows.map((r) => r.licenceId);

beforeEach(async () => {
  app = await createTestApp();
  await app.registerAdmin();
  admin = await app.login();
  const licences: Array<[string, Parameters<typeof licenceText>[1], string]> = [
    ['L-a', { userCount: 1000 }, 'Alpha Works'],
    ['L-b', { userCount: 1500 }, FORMULA],
    ['L-c', { userCount: 2000, features: ['gis', 'DST', 'DI', 'AI', 'Oauth'] }, 'Gamma, "Ltd"'],
  ];
  for (const [id, grant, licensee] of licences) {
    await upload(licenceText(app, grant, { id, licensee }));
    appliedAt[id] = (await app.call('GET', '/portal/rest/license/info', admin)).json().installedAt;
    app.advance(HOUR_MS);
  }
});
afterEach(() => app.close());

describe('core/license/machineInfo list', () => {
  it('lists applied licences newest first, with the count header and the §3 fields of this machine', async () => {
    const response = await get('', admin, { withCount: true });
    expect(response.statusCode).toBe(200);
    expect(response.headers.count).toBe('3');
    const rows = response.json<Row[]>();
    expect(ids(rows)).toEqual(['L-c', 'L-b', 'L-a']);
    expect(rows.map((r) => r.time)).toEqual([appliedAt['L-c'], appliedAt['L-b'], appliedAt['L-a']]);
    expect(rows[2]).toEqual({
      id: rows[2]?.id,
      time: appliedAt['L-a'],
      ...machineFieldsOf(TEST_MACHINE),
      machineCode: TEST_MACHINE_CODE,
      licenceId: 'L-a',
      product: 'platform-spm',
      keyId: expect.stringMatching(/^[0-9a-f]{16}$/),
      issuedAt: expect.any(String),
      licensee: 'Alpha Works',
      startTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      endTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      validityPeriod: 365,
      userCount: 1000,
      features: ['gis', 'DST', 'DI', 'AI'],
      appliedBy: 'admin',
    });
    // Without withCount there is no count header.
    expect((await get('')).headers.count).toBeUndefined();
  });

  it('sorts, pages, filters and projects through the list layer', async () => {
    expect(ids(await list({ sort: { time: 1 } }))).toEqual(['L-a', 'L-b', 'L-c']);
    expect(ids(await list({ sort: { time: -1 }, skip: 1, limit: 1 }))).toEqual(['L-b']);
    expect(ids(await list({ filter: { licenceId: 'L-b' } }))).toEqual(['L-b']);
    expect(ids(await list({ filter: { userCount: { gte: 1500 } }, sort: { time: 1 } }))).toEqual(['L-b', 'L-c']);
    expect(ids(await list({ filter: { licensee: { like: 'alpha' } } }))).toEqual(['L-a']);
    expect(ids(await list({ filter: { time: { gt: appliedAt['L-a'] } } }))).toEqual(['L-c', 'L-b']);
    expect(ids(await list({ filter: { platform: 'windows' } }))).toEqual([]);

    const projected = await get('', admin, { project: ['licenceId', 'userCount'], withCount: true });
    expect(projected.headers.count).toBe('3');
    for (const row of projected.json<Row[]>())
      expect(Object.keys(row).sort()).toEqual(['id', 'licenceId', 'userCount']);

    for (const bad of [
      { sort: { licenceId: 1 } },
      { filter: { features: ['gis'] } },
      { filter: { nothing: 1 } },
      { project: ['fileSha256'] },
      { unknown: true },
    ]) {
      const response = await get('', admin, bad);
      expect([response.statusCode, response.json().code], JSON.stringify(bad)).toEqual([400, 'badQuery']);
    }
  });

  it('answers one row by id, 404 for an unknown id, and counts with a filter', async () => {
    const rows = await list();
    const one = await get(`/${rows[1]?.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(rows[1]);
    const unknown = await get('/00000000-0000-0000-0000-000000000000');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'notFound']);
    expect((await get(`/${'x'.repeat(65)}`)).statusCode).toBe(400);

    expect((await get('/count')).json()).toEqual({ count: 3 });
    expect((await get('/count', admin, { userCount: { gte: 1500 } })).json()).toEqual({ count: 2 });
    expect((await get('/count', admin, { filter: { licenceId: 'L-a' } })).json()).toEqual({ count: 1 });
    expect((await get('/count', admin, { features: 'gis' })).statusCode).toBe(400);
  });
});

describe('core/license/machineInfo/export', () => {
  const csvLines = (response: LightMyRequestResponse) => {
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    expect(response.body.endsWith('\r\n')).toBe(true);
    return response.body.slice(1, -2).split('\r\n');
  };

  it('exports CSV with a BOM, a header row, one line per row, formulas defused', async () => {
    const response = await get('/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="licence-history.csv"');
    const lines = csvLines(response);
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines).toHaveLength(4);
    const rows = await list();
    const [c, b, a] = lines.slice(1);
    expect(a?.startsWith(`${appliedAt['L-a']},other,${TEST_MACHINE_CODE},${TEST_MACHINE.cpuId},`)).toBe(true);
    expect(a).toContain(',L-a,platform-spm,');
    expect(a?.endsWith(',365,1000,gis DST DI AI,admin')).toBe(true);
    // The licensee that would run as a formula starts with an apostrophe, inside a quoted cell.
    expect(b).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",`);
    expect(b).not.toContain(',=HYPERLINK');
    expect(c).toContain(',"Gamma, ""Ltd""",');
    expect(c).toContain(',gis DST DI AI Oauth,admin');
    // Windows-only columns are empty for this machine.
    expect(a).toContain(`,${machineFieldsOf(TEST_MACHINE).biosAddr},,,,,L-a,`);
    expect(rows).toHaveLength(3);
  });

  it('honours the filter and the sort, but not paging', async () => {
    const filtered = csvLines(await get('/export', admin, { filter: { licenceId: 'L-b' } }));
    expect(filtered).toHaveLength(2);
    expect(filtered[1]).toContain(',L-b,');
    const ascending = csvLines(await get('/export', admin, { sort: { time: 1 }, limit: 1, skip: 1 }));
    expect(ascending.slice(1).map((line) => /,(L-[abc]),/.exec(line)?.[1])).toEqual(['L-a', 'L-b', 'L-c']);
    const none = csvLines(await get('/export', admin, { filter: { licenceId: 'nope' } }));
    expect(none).toEqual([CSV_HEADER]);
    expect((await get('/export', admin, { filter: { features: 'gis' } })).statusCode).toBe(400);
  });
});

describe('Windows history rows', () => {
  it('carry board and BIOS serials, BIOS version and MAC, not uuid and biosAddr', async () => {
    const windows: MachineIdentity = { ...TEST_MACHINE, platform: 'windows', macs: ['00:15:5d:01:02:03'] };
    const db = app.database.db;
    const clock = () => new Date(Date.parse(appliedAt['L-c'] ?? '') + 5 * HOUR_MS);
    const service = new PlatformLicenceService({
      db,
      repo: app.services.licence.repo,
      history: new LicenceHistoryRepository(db),
      audit: new AuditService(new AuditRepository(db), clock),
      clock,
      trusted: trustedKeys([], false),
      production: false,
      machine: async () => windows,
    });
    const user = await new UserRepository(db).findById('admin');
    if (!user) throw new Error('no admin');
    const text = licenceText(app, {}, { id: 'L-win', machineCode: machineCodeOf(windows) });
    await service.apply(text, { user, ip: '127.0.0.1' });

    const [row] = await list({ filter: { platform: 'windows' } });
    expect(row).toMatchObject({
      licenceId: 'L-win',
      platform: 'windows',
      machineCode: machineCodeOf(windows),
      cpuId: TEST_MACHINE.cpuId,
      baseBoardSerialNumber: 'BOARD-0001',
      biosSerialNumber: 'BIOS-0001',
      biosVersion: '2.14.1',
      macAddress: '00:15:5d:01:02:03',
      uuid: null,
      biosAddr: null,
    });
    const other = (await list({ filter: { platform: 'other' } }))[0];
    expect(other).toMatchObject({
      uuid: TEST_MACHINE.systemUuid,
      biosAddr: 'Test BIOS Inc. 2.14.1 2025-03-01',
      baseBoardSerialNumber: null,
      biosSerialNumber: null,
      biosVersion: null,
      macAddress: null,
    });
    const lines = (await get('/export', admin, { filter: { platform: 'windows' } })).body.split('\r\n');
    expect(lines[1]).toContain(
      `,windows,${machineCodeOf(windows)},${TEST_MACHINE.cpuId},,,BOARD-0001,BIOS-0001,2.14.1,00:15:5d:01:02:03,L-win,`,
    );
  });
});

describe('who may read the licence history', () => {
  it('needs log.view / log.export: the administrator yes (bare token too), a tenant 403, nobody 401', async () => {
    const tenant = await signedInTenant(app, admin, 'acme');
    const id = (await list())[0]?.id;
    for (const path of ['', '/count', '/export', `/${id}`]) {
      const denied = await get(path, tenant);
      expect([denied.statusCode, denied.json().code], path).toEqual([403, 'forbidden']);
      expect((await get(path, null)).statusCode, path).toBe(401);
      const bare = await app.app.inject({ method: 'GET', url: `${BASE}${path}`, headers: { authorization: admin } });
      expect(bare.statusCode, path).toBe(200);
    }
  });
});
