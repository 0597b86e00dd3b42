import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { createTenant, installPlatform, TENANT_PASSWORD } from '../../test/fixtures.js';
import { ADMIN_PASSWORD, createTestApp, ENGINE, type TestApp, wire } from '../../test/test-app.js';

const SPM = '/portal/rest/spm';
const DAY = 86_400_000;
const ME = `${SPM}/login/current/user`;

interface Made {
  id: string;
  token: string;
}
async function makeToken(
  t: TestApp,
  session: string,
  body: { name?: string; scope?: 'read' | 'all'; expiresInDays?: number; revokeOnPasswordChange?: boolean } = {},
): Promise<Made> {
  const response = await t.call('POST', `${SPM}/login/current/tokens`, session, {
    name: 'script',
    scope: 'all',
    expiresInDays: 30,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Made>();
}
const status = async (response: Promise<LightMyRequestResponse>) => (await response).statusCode;

/** A route's path with every parameter filled (nothing of that name exists). */
const concrete = (url: string) => url.replace(/:\w+/g, 'nosuch').replace(/\*$/, 'nosuch');

describe(`API token scopes over the whole route table (${ENGINE})`, () => {
  let t: TestApp;
  let read: string;
  let all: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.registerAdmin();
    const admin = await t.login();
    read = (await makeToken(t, admin, { name: 'reader', scope: 'read' })).token;
    all = (await makeToken(t, admin, { name: 'everything', scope: 'all' })).token;
  });
  afterAll(() => t.close());

  const send = (method: string, url: string, token: string) =>
    t.app.inject({
      method: method as 'GET',
      url: concrete(url),
      headers: { authorization: `Bearer ${token}` },
      ...(method === 'GET' || method === 'HEAD' || method === 'DELETE' ? {} : { payload: {} }),
    });
  const table = () => t.actionRoutes.filter((route) => route.method !== 'HEAD');
  const writes = () => table().filter((route) => route.method !== 'GET');

  it('the route table is the whole API', () => {
    const methods = new Set(table().map((route) => route.method));
    expect([...methods].sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
    expect(writes().length).toBeGreaterThan(80);
    expect(table().some((route) => route.url === `${SPM}/login/current/tokens`)).toBe(true);
  });

  it('a read-only token gets 403 on every write, public or not', async () => {
    for (const route of writes()) {
      const response = await send(route.method, route.url, read);
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(403);
      expect(response.json<{ code: string }>().code, `${route.method} ${route.url}`).toBe('apiTokenReadOnly');
    }
  });

  it('a read-only token reads: no read is refused for its scope', async () => {
    for (const route of table().filter((r) => r.method === 'GET')) {
      const response = await send('GET', route.url, read);
      expect(response.statusCode, `GET ${route.url}`).not.toBe(401);
      if (response.statusCode === 403) {
        // Only the account's own security calls refuse tokens, whatever their scope.
        expect(response.json<{ code: string }>().code, `GET ${route.url}`).toBe('apiTokenSessionOnly');
      }
    }
    expect(await status(t.call('GET', ME, read))).toBe(200);
  });

  it('a full token is refused nowhere for its scope; only the account security calls refuse any token', async () => {
    const refused: string[] = [];
    for (const route of writes()) {
      const response = await send(route.method, route.url, all);
      expect(response.statusCode, `${route.method} ${route.url}`).not.toBe(401);
      if (response.statusCode === 403) {
        const { code } = response.json<{ code: string }>();
        expect(code, `${route.method} ${route.url}`).not.toBe('apiTokenReadOnly');
        if (code === 'apiTokenSessionOnly') refused.push(`${route.method} ${route.url}`);
      }
    }
    expect(refused.sort()).toEqual(
      [
        `DELETE ${SPM}/login/current/tokens/:id`,
        `POST ${SPM}/login/current/tokens`,
        `POST ${SPM}/login/current/totp/confirm`,
        `POST ${SPM}/login/current/totp/off`,
        `POST ${SPM}/login/current/totp/setup`,
        `PUT ${SPM}/login/current/password`,
      ].sort(),
    );
    // Still alive after every call of the table.
    expect(await status(t.call('GET', ME, all))).toBe(200);
  });
});

describe(`API tokens (${ENGINE})`, () => {
  let t: TestApp;
  let admin: string;
  beforeEach(async () => {
    t = await createTestApp();
    await t.registerAdmin();
    await installPlatform(t);
    admin = await t.login();
  });
  afterEach(() => t.close());

  it('is shown once, stored as a hash, listed with its last use, and acts as its account', async () => {
    const made = await makeToken(t, admin, { name: 'nightly export' });
    expect(made.token).toMatch(/^gty_[A-Za-z0-9_-]{43}$/);
    const listed = await t.call('GET', `${SPM}/login/current/tokens`, admin);
    expect(listed.body).not.toContain(made.token);
    expect(listed.json()).toMatchObject({
      items: [{ id: made.id, name: 'nightly export', scope: 'all', lastUsedAt: null }],
    });
    const stored = JSON.stringify(await queryRows(t.database.db, sql`SELECT * FROM api_tokens`));
    expect(stored).not.toContain(made.token);

    const me = await t.call('GET', ME, made.token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: 'admin', isAdmin: true });
    const after = (await t.call('GET', `${SPM}/login/current/tokens`, admin)).json<{
      items: Array<{ lastUsedAt: string }>;
    }>();
    expect(after.items[0]?.lastUsedAt).toBe(new Date(t.now()).toISOString());
    // Only in the header: never from a URL, even on the routes that take a session's token there.
    expect(await status(t.call('GET', `${SPM}/login/current/user?token=${made.token}`))).toBe(401);
  });

  it('names the token in every audit entry it causes', async () => {
    const made = await makeToken(t, admin, { name: 'provisioning' });
    expect(await status(createTenant(t, made.token, 'tena').then(() => t.call('GET', ME, made.token)))).toBe(200);
    const [entry] = await queryRows<{ actor_id: string; detail: { apiToken?: unknown } }>(
      t.database.db,
      sql`SELECT actor_id, detail FROM audit_log WHERE action = 'tenant.create'`,
    );
    expect(entry).toMatchObject({ actor_id: 'admin', detail: { apiToken: { id: made.id, name: 'provisioning' } } });
  });

  it('is refused after revocation; the administrator sees and revokes everyone’s', async () => {
    await createTenant(t, admin, 'tena');
    const tenant = await t.login('tena', TENANT_PASSWORD);
    const own = await makeToken(t, tenant, { name: 'mine' });
    const other = await makeToken(t, tenant, { name: 'other' });
    const admins = await makeToken(t, admin, { name: 'admin script' });
    // A tenant neither lists everyone's nor touches another account's token.
    expect(await status(t.call('GET', `${SPM}/api-tokens`, tenant))).toBe(403);
    expect(await status(t.call('DELETE', `${SPM}/login/current/tokens/${admins.id}`, tenant))).toBe(404);
    expect(await status(t.call('DELETE', `${SPM}/login/current/tokens/${own.id}`, tenant))).toBe(200);
    expect(await status(t.call('GET', ME, own.token))).toBe(401);

    const everyone = (await t.call('GET', `${SPM}/api-tokens`, admin)).json<{
      items: Array<{ id: string; userId: string }>;
    }>();
    expect(everyone.items.map((item) => `${item.userId}:${item.id}`).sort()).toEqual(
      [`tena:${other.id}`, `admin:${admins.id}`].sort(),
    );
    expect(await status(t.call('GET', ME, other.token))).toBe(200);
    expect(await status(t.call('DELETE', `${SPM}/api-tokens/${other.id}`, admin))).toBe(200);
    expect(await status(t.call('GET', ME, other.token))).toBe(401);
    const actions = await queryRows<{ action: string }>(
      t.database.db,
      sql`SELECT action FROM audit_log WHERE action LIKE 'account.apiToken.%' ORDER BY id`,
    );
    expect(actions.map((row) => row.action)).toEqual([
      'account.apiToken.create',
      'account.apiToken.create',
      'account.apiToken.create',
      'account.apiToken.revoke',
      'account.apiToken.revoke',
    ]);
  });

  it('is refused once expired', async () => {
    const made = await makeToken(t, admin, { expiresInDays: 1 });
    t.advance(DAY - 1000);
    expect(await status(t.call('GET', ME, made.token))).toBe(200);
    t.advance(1000);
    expect(await status(t.call('GET', ME, made.token))).toBe(401);
    expect(
      (
        await t.call('POST', `${SPM}/login/current/tokens`, await t.login(), {
          name: 'x',
          scope: 'read',
          expiresInDays: 367,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('is refused while its account is disabled, and once it is deleted', async () => {
    await createTenant(t, admin, 'tena');
    const made = await makeToken(t, await t.login('tena', TENANT_PASSWORD));
    expect(await status(t.call('GET', ME, made.token))).toBe(200);
    expect(await status(t.call('PATCH', `${SPM}/user/tena/status`, admin, { status: false }))).toBe(200);
    expect(await status(t.call('GET', ME, made.token))).toBe(401);
    expect(await status(t.call('DELETE', `${SPM}/user/tena`, admin))).toBe(200);
    expect(await status(t.call('GET', ME, made.token))).toBe(401);
    expect(await queryRows(t.database.db, sql`SELECT id FROM api_tokens`)).toEqual([]);
  });

  it('ends with a password change when made to, whoever changes it', async () => {
    await createTenant(t, admin, 'tena');
    const tenant = await t.login('tena', TENANT_PASSWORD);
    const ending = await makeToken(t, tenant, { revokeOnPasswordChange: true });
    const staying = await makeToken(t, tenant, { revokeOnPasswordChange: false });
    const changed = await t.call('PUT', `${SPM}/login/current/password`, tenant, {
      oldPassword: wire(TENANT_PASSWORD),
      newPassword: wire('Tenant456'),
      newPassword2: wire('Tenant456'),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await status(t.call('GET', ME, ending.token))).toBe(401);
    expect(await status(t.call('GET', ME, staying.token))).toBe(200);

    const again = await makeToken(t, await t.login('tena', 'Tenant456'), { revokeOnPasswordChange: true });
    const set = await t.call('PUT', `${SPM}/user/tena/password`, admin, {
      adminPassword: wire(ADMIN_PASSWORD),
      password: wire('Tenant789'),
      password1: wire('Tenant789'),
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await status(t.call('GET', ME, again.token))).toBe(401);
    expect(await status(t.call('GET', ME, staying.token))).toBe(200);
  });
});

describe(`API tokens in the log (${ENGINE})`, () => {
  it('never appear in the request log, in the header or a URL', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
    try {
      await t.registerAdmin();
      const made = await makeToken(t, await t.login(), { scope: 'read' });
      await t.call('GET', ME, made.token);
      await t.call('POST', `${SPM}/setting`, made.token, {});
      await t.call('GET', `${SPM}/platform/backup/x/download?token=${made.token}`);
      await t.call('GET', `${SPM}/nosuch?access_token=${made.token}`);
      expect(lines.length).toBeGreaterThan(3);
      expect(lines.join('')).not.toContain(made.token.slice(4));
    } finally {
      await t.close();
    }
  });
});
