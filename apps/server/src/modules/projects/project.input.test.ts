/** Malformed input is a 400 naming the field, never a 500, and never stored to break a later read. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appWithTenants,
  day,
  grant,
  installPlatform,
  projectBody,
  SPM_URL,
  TENANT_PASSWORD,
} from '../../test/fixtures.js';
import { type TestApp, wire } from '../../test/test-app.js';

let app: TestApp;
let admin: string;
let tenant: string;
beforeAll(async () => {
  [app, admin, tenant] = await appWithTenants(['acme']);
  // Long enough that any date of next year lies inside the platform grant.
  await installPlatform(app, { validityPeriod: 800 });
});
afterAll(() => app.close());

const small = (overrides: Record<string, unknown> = {}) =>
  grant(app, { userCount: 1, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [], ...overrides });
const post = (token: string, overrides: Record<string, unknown>) =>
  app.call('POST', `${SPM_URL}/project`, token, projectBody(app, { grant: small(), ...overrides }));

describe('project input', () => {
  it('refuses calendar dates that do not exist, so the dashboard keeps working', async () => {
    const nextYear = Number(day(app).slice(0, 4)) + 1;
    for (const startTime of [`${nextYear}-02-30`, `${nextYear}-04-31`, `${nextYear}-13-01`, '0000-01-01']) {
      const response = await post(admin, { grant: small({ startTime, validityPeriod: 10 }) });
      expect(response.statusCode, `${startTime} ${response.body}`).toBe(400);
      expect(response.json().fields['grant.startTime'], startTime).toBe('日期格式应为YYYY-MM-DD');
    }
    expect((await app.call('GET', `${SPM_URL}/dashboard`, admin)).statusCode).toBe(200);
    expect((await app.call('GET', `${SPM_URL}/dashboard`, tenant)).statusCode).toBe(200);
  });

  it('answers a grant without its required fields with the spec message', async () => {
    const { grant: _grant, ...withoutGrant } = projectBody(app);
    const none = await app.call('POST', `${SPM_URL}/project`, admin, withoutGrant);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: '请检查可用授权', fields: { grant: '请检查可用授权' } });
    for (const field of ['startTime', 'userCount', 'validityPeriod', 'flow'] as const) {
      const { [field]: _dropped, ...partial } = small();
      const response = await post(admin, { grant: partial });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().fields[`grant.${field}`], field).toBe('请检查可用授权');
    }
    const zero = await post(admin, { grant: small({ userCount: 0 }) });
    expect(zero.json().fields['grant.userCount']).toBe('请输入不小于1的整数（不能为0、小数或负数，且不超过上限）');
  });

  it('refuses ids that name a route of their own, which GET {id} could never reach', async () => {
    for (const id of ['count', 'available']) {
      const response = await post(admin, { id });
      expect(response.statusCode, id).toBe(400);
      expect(response.json().fields.id).toBe('项目ID已存在');
    }
    const tenant = await app.call('POST', `${SPM_URL}/user`, admin, {
      id: 'count',
      name: 'Count',
      type: 0,
      industry: 'coal',
      grant: small(),
      password: wire(TENANT_PASSWORD),
      password1: wire(TENANT_PASSWORD),
    });
    expect(tenant.statusCode).toBe(400);
    expect(tenant.json().fields.id).toBe('用户ID已存在');
  });

  it('refuses deeply nested values with a 400', async () => {
    for (const depth of [100, 20_000]) {
      const nested = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
      const body = JSON.stringify(projectBody(app, { grant: small() })).replace(/}$/, `,"extra":{"a":${nested}}}`);
      const response = await app.app.inject({
        method: 'POST',
        url: `${SPM_URL}/project`,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        payload: body,
      });
      expect(response.statusCode, String(depth)).toBe(400);
      expect(response.json().code).toBe('validation');
    }
    const fine = await post(admin, { extra: { region: [[{ value: 1, children: [{ value: 2 }] }]] } });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('refuses text with a lone surrogate, which PostgreSQL cannot store as JSON', async () => {
    const extra = await post(admin, { extra: { note: 'a\ud800b' } });
    expect(extra.statusCode, extra.body).toBe(400);
    expect(Object.keys(extra.json().fields)).toEqual(['extra.note']);
    const setting = { columns: ['name\udc00'], pageSize: 10 };
    const table = await app.call('PATCH', `${SPM_URL}/user/acme`, tenant, { tableSettings: { project: setting } });
    expect(table.statusCode, table.body).toBe(400);
    const key = await app.call('PATCH', `${SPM_URL}/user/acme`, tenant, {
      tableSettings: { 'p\ud83d': { columns: ['name'], pageSize: 10 } },
    });
    expect(key.statusCode, key.body).toBe(400);
    const pair = await post(admin, { extra: { note: 'plant 🏭' } });
    expect(pair.statusCode, pair.body).toBe(200);
  });

  it('refuses a NUL character in the certificate form', async () => {
    const boundary = '----gantryinput';
    const part = (name: string, value: string, file?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${value}\r\n`;
    const payload = Buffer.from(
      `${part('id', 'a\u0000b')}${part('certKey', '-----BEGIN PRIVATE KEY-----\n', 'a.key')}${part('certPem', '-----BEGIN CERTIFICATE-----\n', 'a.pem')}--${boundary}--\r\n`,
    );
    const response = await app.app.inject({
      method: 'POST',
      url: `${SPM_URL}/project/cert`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields).toEqual({ id: '不能包含空字符（\\u0000）' });
  });
});
