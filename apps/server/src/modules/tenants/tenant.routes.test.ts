import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  adminWithLicence,
  createProject,
  createTenant,
  grant,
  SPM_URL,
  signedInTenant,
  TENANT_PASSWORD,
} from '../../test/fixtures.js';
import { ADMIN_PASSWORD, createTestApp, type TestApp, wire } from '../../test/test-app.js';

let app: TestApp;
let admin: string;
beforeEach(async () => {
  app = await createTestApp();
  admin = await adminWithLicence(app);
});
afterEach(() => app.close());

const body = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  name: `Tenant ${id}`,
  type: 0,
  industry: 'oilfield',
  grant: grant(app),
  password: wire(TENANT_PASSWORD),
  password1: wire(TENANT_PASSWORD),
  ...overrides,
});

describe('tenants', () => {
  it('creates a tenant with an argon2id password that signs in with its id, and lists it with a count', async () => {
    const created = await app.call('POST', `${SPM_URL}/user`, admin, body('acme', { remarks: 'first' }));
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ id: 'acme', user: 'acme', type: 0, status: true, remarks: 'first' });
    expect(created.json().grant.remainingTime).toBe(100);
    expect(created.body).not.toContain('password');

    const tenantToken = await app.login('acme', TENANT_PASSWORD);
    const me = await app.call('GET', `${SPM_URL}/login/current/user`, tenantToken);
    expect(me.json()).toMatchObject({ id: 'acme', isAdmin: false });

    await createTenant(app, admin, 'beta');
    const list = await app.call(
      'GET',
      `${SPM_URL}/user?query=${encodeURIComponent(JSON.stringify({ withCount: true, limit: 1, sort: { createTime: -1 } }))}`,
      admin,
    );
    expect(list.statusCode).toBe(200);
    expect(list.headers.count).toBe('2');
    expect(list.json()).toHaveLength(1);
    const count = await app.call(
      'GET',
      `${SPM_URL}/user/count?query=${encodeURIComponent('{"name":{"like":"acme"}}')}`,
      admin,
    );
    expect(count.json()).toEqual({ count: 1 });
  });

  it('generates an id when none is given', async () => {
    const created = await app.call('POST', `${SPM_URL}/user`, admin, body(''));
    expect(created.statusCode).toBe(200);
    expect(created.json().id).toMatch(/^t[0-9a-f]{10}$/);
  });

  it('refuses bad tenant bodies with field messages and keeps nothing', async () => {
    const mismatch = await app.call('POST', `${SPM_URL}/user`, admin, body('acme', { password1: wire('Other123') }));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fields.password1).toBe('两次输入的密码不一致');
    const noPassword = await app.call('POST', `${SPM_URL}/user`, admin, { ...body('acme'), password: undefined });
    expect(noPassword.statusCode).toBe(400);
    const noGrant = await app.call('POST', `${SPM_URL}/user`, admin, { ...body('acme'), grant: undefined });
    expect(noGrant.statusCode).toBe(400);
    const zero = await app.call(
      'POST',
      `${SPM_URL}/user`,
      admin,
      body('acme', { grant: grant(app, { userCount: 0 }) }),
    );
    expect(zero.statusCode).toBe(400);
    expect(Object.keys(zero.json().fields)).toContain('grant.userCount');
    const decimal = await app.call(
      'POST',
      `${SPM_URL}/user`,
      admin,
      body('acme', { grant: grant(app, { userCount: 1.5 }) }),
    );
    expect(decimal.statusCode).toBe(400);
    const adminId = await app.call('POST', `${SPM_URL}/user`, admin, body('admin'));
    expect(adminId.statusCode).toBe(400);
    const list = await app.call('GET', `${SPM_URL}/user`, admin);
    expect(list.json()).toEqual([]);

    await createTenant(app, admin, 'acme');
    const taken = await app.call('POST', `${SPM_URL}/user`, admin, body('acme'));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'tenantIdTaken', message: '用户ID已存在' });
  });

  it('keeps tenant grants within the platform licence, summed over all tenants', async () => {
    const over = await app.call(
      'POST',
      `${SPM_URL}/user`,
      admin,
      body('big', { grant: grant(app, { userCount: 1001 }) }),
    );
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 'grantInvalid', message: '用户数不能大于授权用户数' });
    expect(over.json().fields['grant.userCount']).toBe('用户数不能大于授权用户数');

    await createTenant(app, admin, 'one', { grant: grant(app, { userCount: 600 }) });
    const second = await app.call(
      'POST',
      `${SPM_URL}/user`,
      admin,
      body('two', { grant: grant(app, { userCount: 600 }) }),
    );
    expect(second.statusCode).toBe(400);
    expect(second.json().fields['grant.userCount']).toBe('用户数不能大于授权用户数');
    const fits = await app.call(
      'POST',
      `${SPM_URL}/user`,
      admin,
      body('two', { grant: grant(app, { userCount: 400 }) }),
    );
    expect(fits.statusCode).toBe(200);

    const features = await app.call(
      'POST',
      `${SPM_URL}/user`,
      admin,
      body('three', { grant: grant(app, { userCount: 1, features: ['kafka'] }) }),
    );
    expect(features.statusCode).toBe(400);
    expect(features.json().fields['grant.features']).toContain('kafka');
    const longer = await app.call(
      'POST',
      `${SPM_URL}/user`,
      admin,
      body('three', { grant: grant(app, { userCount: 1, validityPeriod: 366 }) }),
    );
    expect(longer.statusCode).toBe(400);
    expect(Object.keys(longer.json().fields)).toContain('grant.validityPeriod');
  });

  it('edits a tenant without password fields and never below what its projects hold', async () => {
    const token = await signedInTenant(app, admin, 'acme');
    await createProject(app, token, {
      grant: grant(app, { userCount: 6, flow: { tableCount: 2 }, dataGathering: { point: 10 }, features: [] }),
    });

    const renamed = await app.call('PATCH', `${SPM_URL}/user/acme`, admin, { name: 'Acme Ltd', type: 1 });
    expect(renamed.json()).toMatchObject({ name: 'Acme Ltd', type: 1 });
    const withPassword = await app.call('PATCH', `${SPM_URL}/user/acme`, admin, { password: wire('Abcdef123') });
    expect(withPassword.statusCode).toBe(400);
    const shrink = await app.call('PATCH', `${SPM_URL}/user/acme`, admin, { grant: grant(app, { userCount: 5 }) });
    expect(shrink.statusCode).toBe(400);
    expect(shrink.json().fields['grant.userCount']).toBe('用户数不能小于已分配的6');
    const ok = await app.call('PATCH', `${SPM_URL}/user/acme`, admin, { grant: grant(app, { userCount: 6 }) });
    expect(ok.statusCode).toBe(200);
  });

  it('stores table preferences per user and table, at least one column, page size ≥ 1', async () => {
    const token = await signedInTenant(app, admin, 'acme');
    const setting = { columns: ['name', 'status'], density: 'compact', pageSize: 30 };
    const saved = await app.call('PATCH', `${SPM_URL}/user/acme`, token, { tableSettings: { project: setting } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().tableSettings).toEqual({ project: setting });
    const none = await app.call('PATCH', `${SPM_URL}/user/acme`, token, {
      tableSettings: { project: { ...setting, columns: [] } },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().fields['tableSettings.project.columns']).toBe('至少需要选择一个配置项');
    const zero = await app.call('PATCH', `${SPM_URL}/user/acme`, token, {
      tableSettings: { project: { ...setting, pageSize: 0 } },
    });
    expect(zero.statusCode).toBe(400);
    // The administrator's own preferences live on its own record.
    await app.call('PATCH', `${SPM_URL}/user/admin`, admin, { tableSettings: { user: setting } });
    const again = await app.login();
    const mine = await app.call('GET', `${SPM_URL}/user/admin`, again);
    expect(mine.json().tableSettings).toEqual({ user: setting });
    // A tenant changes nothing else on itself.
    const rename = await app.call('PATCH', `${SPM_URL}/user/acme`, token, { name: 'Mine now' });
    expect(rename.statusCode).toBe(403);
  });

  it('disables a tenant with its projects and sessions, and enables it with the chosen projects', async () => {
    const token = await signedInTenant(app, admin, 'acme');
    const small = {
      grant: grant(app, { userCount: 1, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] }),
    };
    const p1 = await createProject(app, token, { id: 'pone', ...small });
    const p2 = await createProject(app, token, { id: 'ptwo', ...small });

    const disabled = await app.call('PATCH', `${SPM_URL}/user/acme/disable`, admin);
    expect(disabled.json().status).toBe(false);
    expect((await app.call('GET', `${SPM_URL}/project`, token)).statusCode).toBe(401);
    const login = await app.call('POST', `${SPM_URL}/login`, undefined, {
      username: 'acme',
      password: wire(TENANT_PASSWORD),
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().message).toBe('账号已被禁用');
    const projects = await app.call(
      'GET',
      `${SPM_URL}/project?query=${encodeURIComponent('{"filter":{"user":"acme"}}')}`,
      admin,
    );
    expect(projects.json().map((p: { status: boolean }) => p.status)).toEqual([false, false]);
    const refused = await app.call('PATCH', `${SPM_URL}/project/${p1.id}/status`, admin, { status: true });
    expect(refused.statusCode).toBe(409);

    const foreign = await app.call('PATCH', `${SPM_URL}/user/acme/enable`, admin, ['nosuch']);
    expect(foreign.statusCode).toBe(400);
    const enabled = await app.call('PATCH', `${SPM_URL}/user/acme/enable`, admin, [p2.id]);
    expect(enabled.json().status).toBe(true);
    const after = await app.call(
      'GET',
      `${SPM_URL}/project?query=${encodeURIComponent('{"sort":{"name":1},"filter":{"user":"acme"}}')}`,
      admin,
    );
    const states = Object.fromEntries(after.json().map((p: { id: string; status: boolean }) => [p.id, p.status]));
    expect(states).toEqual({ pone: false, ptwo: true });
    expect(
      (await app.call('POST', `${SPM_URL}/login`, undefined, { username: 'acme', password: wire(TENANT_PASSWORD) }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses to delete a tenant that owns projects, saying how many', async () => {
    const token = await signedInTenant(app, admin, 'acme');
    const small = {
      grant: grant(app, { userCount: 1, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] }),
    };
    const p = await createProject(app, token, small);
    await createProject(app, token, small);
    const refused = await app.call('DELETE', `${SPM_URL}/user/acme`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('2');
    expect((await app.call('GET', `${SPM_URL}/user/acme`, admin)).statusCode).toBe(200);
    await app.call('DELETE', `${SPM_URL}/project/${p.id}`, admin);
    const others = await app.call('GET', `${SPM_URL}/project`, token);
    await app.call('DELETE', `${SPM_URL}/project/${others.json()[0].id}`, token);
    const deleted = await app.call('DELETE', `${SPM_URL}/user/acme`, admin);
    expect(deleted.statusCode).toBe(200);
    expect((await app.call('GET', `${SPM_URL}/user/acme`, admin)).statusCode).toBe(404);
  });

  it('changes a tenant password in two steps, the administrator verified each time', async () => {
    const tenantToken = await signedInTenant(app, admin, 'acme');
    const wrong = await app.call('POST', `${SPM_URL}/user/changepwd`, admin, { password: wire('nope1234') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('校验失败，密码不正确');
    const right = await app.app.inject({
      method: 'POST',
      url: `${SPM_URL}/user/changepwd`,
      headers: { authorization: admin, 'accept-language': 'en' },
      payload: { password: wire(ADMIN_PASSWORD) },
    });
    expect(right.json()).toEqual({ message: 'verification successful' });
    const skipped = await app.call('PUT', `${SPM_URL}/user/acme/password`, admin, {
      adminPassword: wire('nope1234'),
      password: wire('NewPass123'),
      password1: wire('NewPass123'),
    });
    expect(skipped.statusCode).toBe(400);
    const changed = await app.call('PUT', `${SPM_URL}/user/acme/password`, admin, {
      adminPassword: wire(ADMIN_PASSWORD),
      password: wire('NewPass123'),
      password1: wire('NewPass123'),
    });
    expect(changed.statusCode).toBe(200);
    expect((await app.call('GET', `${SPM_URL}/project`, tenantToken)).statusCode).toBe(401);
    expect(await app.login('acme', 'NewPass123')).toBeTruthy();
    expect(await app.services.auth.verifyPassword('acme', wire(TENANT_PASSWORD))).toBe(false);
  });

  it('shows a tenant only itself and lets it change no tenant', async () => {
    await createTenant(app, admin, 'acme');
    await createTenant(app, admin, 'beta');
    const token = await app.login('acme', TENANT_PASSWORD);
    const list = await app.call('GET', `${SPM_URL}/user`, token);
    expect(list.json().map((t: { id: string }) => t.id)).toEqual(['acme']);
    expect((await app.call('GET', `${SPM_URL}/user/beta`, token)).statusCode).toBe(404);
    expect((await app.call('POST', `${SPM_URL}/user`, token, body('gamma'))).statusCode).toBe(403);
    expect((await app.call('PATCH', `${SPM_URL}/user/beta/disable`, token)).statusCode).toBe(403);
    expect((await app.call('DELETE', `${SPM_URL}/user/beta`, token)).statusCode).toBe(403);
  });

  it('refuses a tenant when no platform licence is installed', async () => {
    const bare = await createTestApp();
    try {
      await bare.registerAdmin();
      const token = await bare.login();
      const response = await bare.call('POST', `${SPM_URL}/user`, token, { ...body('acme'), grant: grant(bare) });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'licenceMissing',
        message: '尚未上传平台授权',
        license: '尚未上传平台授权',
      });
    } finally {
      await bare.close();
    }
  });
});
