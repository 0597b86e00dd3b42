import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { adminWithLicence, createTenant, SPM_URL, TENANT_PASSWORD } from '../../test/fixtures.js';
import { startTestProvider, TEST_CLIENT, type TestProvider } from '../../test/oidc-test-provider.js';
import { createTestApp, type TestApp, wire } from '../../test/test-app.js';

/**
 * Single sign-on (issue 34 §1) against a real OpenID provider on loopback: the callback's rules
 * (state once and from the same browser, the ID token's nonce, audience, expiry and signature), the
 * accounts it may sign in as, and sessions that end like any other.
 */
const HOST = 'gantry.test';
const CALLBACK = `http://${HOST}${SPM_URL}/login/sso/callback`;

let provider: TestProvider;
let app: TestApp;
let admin: string;

beforeAll(async () => {
  provider = await startTestProvider([CALLBACK]);
});
afterAll(() => provider.close());
beforeEach(async () => {
  app = await createTestApp();
  admin = await adminWithLicence(app);
  await createTenant(app, admin, 'acme');
  provider.tamper = undefined;
});
afterEach(() => app.close());

function settings(overrides: Record<string, unknown> = {}) {
  return {
    enabled: true,
    issuer: provider.issuer,
    clientId: TEST_CLIENT.id,
    clientSecret: TEST_CLIENT.secret,
    scopes: 'openid profile email',
    accountClaim: 'preferred_username',
    buttonName: 'Company login',
    unknownAccount: 'refuse',
    tenantType: 1,
    tenantIndustry: 'coal',
    tenantPasswordLogin: true,
    ...overrides,
  };
}

async function configure(overrides: Record<string, unknown> = {}) {
  const response = await app.call('PUT', `${SPM_URL}/sso/settings`, admin, settings(overrides));
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

const get = (url: string, cookie?: string) =>
  app.app.inject({ method: 'GET', url, headers: { host: HOST, ...(cookie ? { cookie } : {}) } });

/** The cookie a response sets (name=value), or undefined. */
function cookieOf(response: { headers: Record<string, unknown> }): string | undefined {
  const header = response.headers['set-cookie'];
  const line = Array.isArray(header) ? header[0] : header;
  return typeof line === 'string' ? line.split(';')[0] : undefined;
}

/** Start → the provider's pages as `login` → the callback URL it sends the browser to. */
async function throughProvider(login: string, returnTo?: string) {
  const start = await get(`${SPM_URL}/login/sso/start${returnTo ? `?return=${encodeURIComponent(returnTo)}` : ''}`);
  expect(start.statusCode, start.body).toBe(302);
  const browser = cookieOf(start);
  const back = await provider.signIn(String(start.headers.location), login);
  expect(back.origin).toBe(`http://${HOST}`);
  return { browser, callback: `${back.pathname}${back.search}` };
}

/** The console's login page URL the callback answered with, parsed. */
function landing(response: { statusCode: number; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(302);
  const location = String(response.headers.location);
  expect(location.startsWith('/portal/#/login?')).toBe(true);
  return new URLSearchParams(location.slice('/portal/#/login?'.length));
}

async function signIn(login: string, returnTo?: string) {
  const { browser, callback } = await throughProvider(login, returnTo);
  const answer = await get(callback, browser);
  const query = landing(answer);
  return { query, browser: cookieOf(answer) };
}

const redeem = (ticket: string, cookie: string | undefined) =>
  app.app.inject({
    method: 'POST',
    url: `${SPM_URL}/login/sso/ticket`,
    headers: { host: HOST, ...(cookie ? { cookie } : {}) },
    payload: { ticket },
  });

const auditCount = async (action: string, objectId?: string) => {
  const [row] = await queryRows<{ n: number }>(
    app.database.db,
    objectId === undefined
      ? sql`select count(*)::int as n from audit_log where action = ${action}`
      : sql`select count(*)::int as n from audit_log where action = ${action} and object_id = ${objectId}`,
  );
  return row?.n ?? -1;
};

describe('SSO settings', () => {
  it('keeps the client secret sealed: never answered, stored encrypted, kept when not sent', async () => {
    const saved = await configure();
    expect(saved.body).not.toContain(TEST_CLIENT.secret);
    expect(saved.json()).toMatchObject({
      clientSecretSet: true,
      redirectUri: `http://localhost:80${SPM_URL}/login/sso/callback`,
    });
    const [row] = await queryRows<{ s: string }>(
      app.database.db,
      sql`select client_secret_encrypted as s from sso_settings`,
    );
    expect(row?.s.startsWith('v1:')).toBe(true);
    expect(row?.s).not.toContain(TEST_CLIENT.secret);
    const { clientSecret: _, ...withoutSecret } = settings({ buttonName: 'Renamed' });
    const kept = await app.call('PUT', `${SPM_URL}/sso/settings`, admin, withoutSecret);
    expect(kept.json()).toMatchObject({ clientSecretSet: true, buttonName: 'Renamed' });
    const read = await app.call('GET', `${SPM_URL}/sso/settings`, admin);
    expect(read.body).not.toContain(TEST_CLIENT.secret);
    const audit = await app.call(
      'GET',
      `${SPM_URL}/audit?query=${encodeURIComponent('{"filter":{"action":"ssoSettings.update"}}')}`,
      admin,
    );
    expect(audit.json()).toHaveLength(2);
    expect(audit.body).not.toContain(TEST_CLIENT.secret);
  });

  it('refuses an http issuer off loopback, scopes without openid, and a tenant', async () => {
    const bad = await app.call(
      'PUT',
      `${SPM_URL}/sso/settings`,
      admin,
      settings({ issuer: 'http://idp.example.com', scopes: 'profile' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields ?? {}).sort()).toEqual(['issuer', 'scopes']);
    const tenant = await app.login('acme', TENANT_PASSWORD);
    expect((await app.call('PUT', `${SPM_URL}/sso/settings`, tenant, settings())).statusCode).toBe(403);
    expect((await app.call('GET', `${SPM_URL}/sso/settings`, tenant)).statusCode).toBe(403);
  });

  it('shows the button on the login page only when enabled', async () => {
    expect((await get(`${SPM_URL}/login/sso`)).json()).toEqual({
      enabled: false,
      buttonName: '',
      tenantPasswordLogin: true,
    });
    expect((await get(`${SPM_URL}/login/sso/start`)).statusCode).toBe(404);
    await configure();
    expect((await get(`${SPM_URL}/login/sso`)).json()).toEqual({
      enabled: true,
      buttonName: 'Company login',
      tenantPasswordLogin: true,
    });
  });

  it('turns the password off for tenants only, never for the administrator', async () => {
    await configure({ tenantPasswordLogin: false });
    const refused = await app.call('POST', `${SPM_URL}/login`, undefined, {
      username: 'acme',
      password: wire(TENANT_PASSWORD),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('passwordLoginDisabled');
    await expect(app.login()).resolves.toBeTruthy();
  });
});

describe('SSO sign-in', () => {
  beforeEach(() => configure());

  it('signs a tenant in with the same session a password makes, ended by logout', async () => {
    const start = await get(`${SPM_URL}/login/sso/start`);
    const cookieLine = String(start.headers['set-cookie']);
    expect(cookieLine).toMatch(/HttpOnly/);
    expect(cookieLine).toMatch(/SameSite=Lax/);
    const authorization = new URL(String(start.headers.location));
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();

    const { query, browser } = await signIn('acme', '/app/model/Project/list');
    const ticket = query.get('sso');
    expect(ticket).toBeTruthy();
    const session = await redeem(ticket ?? '', browser);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()).toMatchObject({ id: 'acme', isAdmin: false, returnPath: '/app/model/Project/list' });
    const token = session.json<{ token: string }>().token;
    expect((await app.call('GET', `${SPM_URL}/login/current/user`, token)).json()).toMatchObject({ id: 'acme' });
    expect(await auditCount('sso.login', 'acme')).toBe(1);
    // The ticket is used once.
    expect((await redeem(ticket ?? '', browser)).statusCode).toBe(400);
    await app.call('POST', `${SPM_URL}/login/exit`, token);
    expect((await app.call('GET', `${SPM_URL}/login/current/user`, token)).statusCode).toBe(401);
  });

  it('ends an SSO session when the tenant is disabled, and refuses it then', async () => {
    const { query, browser } = await signIn('acme');
    const token = (await redeem(query.get('sso') ?? '', browser)).json<{ token: string }>().token;
    expect((await app.call('PATCH', `${SPM_URL}/user/acme/disable`, admin)).statusCode).toBe(200);
    expect((await app.call('GET', `${SPM_URL}/login/current/user`, token)).statusCode).toBe(401);
    expect((await signIn('acme')).query.get('ssoError')).toBe('accountDisabled');
  });

  it('ends an SSO session when the tenant is deleted', async () => {
    const { query, browser } = await signIn('acme');
    const token = (await redeem(query.get('sso') ?? '', browser)).json<{ token: string }>().token;
    expect((await app.call('DELETE', `${SPM_URL}/user/acme`, admin)).statusCode).toBe(200);
    expect((await app.call('GET', `${SPM_URL}/login/current/user`, token)).statusCode).toBe(401);
  });

  it('takes an answer once: a replayed callback is refused', async () => {
    const { callback, browser } = await throughProvider('acme');
    const first = landing(await get(callback, browser));
    expect(first.get('sso'), first.toString()).toBeTruthy();
    expect(landing(await get(callback, browser)).get('ssoError')).toBe('ssoFailed');
  });

  it('refuses an unknown state, and an answer brought to another browser', async () => {
    expect(
      landing(await get(`${SPM_URL}/login/sso/callback?code=x&state=forged`, 'gantry_sso=x')).get('ssoError'),
    ).toBe('ssoFailed');
    const { callback } = await throughProvider('acme');
    expect(landing(await get(callback, 'gantry_sso=another-browser')).get('ssoError')).toBe('ssoFailed');
    expect(landing(await get(callback)).get('ssoError')).toBe('ssoFailed');
  });

  it('refuses a ticket from another browser', async () => {
    const { query } = await signIn('acme');
    expect((await redeem(query.get('sso') ?? '', 'gantry_sso=another-browser')).statusCode).toBe(400);
  });

  it.each([
    ['another nonce', { claims: { nonce: 'not-the-one-sent' } }],
    ['another audience', { claims: { aud: 'another-client' } }],
    ['another issuer', { claims: { iss: 'http://127.0.0.1:1' } }],
    [
      'an expired token',
      { claims: { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 } },
    ],
    ['a signature by another key', { foreignKey: true }],
  ])('refuses an ID token with %s', async (_name, tamper) => {
    provider.tamper = tamper;
    const { query } = await signIn('acme');
    expect(query.get('ssoError')).toBe('ssoFailed');
    expect(query.get('sso')).toBeNull();
    expect(await auditCount('sso.login')).toBe(0);
  });

  it('accepts a token re-signed with the provider’s key and unchanged (the refusals above are the claims’)', async () => {
    provider.tamper = { claims: {} };
    const { query, browser } = await signIn('acme');
    expect((await redeem(query.get('sso') ?? '', browser)).statusCode).toBe(200);
  });

  it('never signs in as the administrator', async () => {
    expect((await signIn('admin')).query.get('ssoError')).toBe('ssoAdminRefused');
  });

  it('refuses an unknown account, then makes a tenant for it when the setting allows', async () => {
    provider.identities.set('newcomer', { sub: 'newcomer', preferred_username: 'Newcomer' });
    expect((await signIn('newcomer')).query.get('ssoError')).toBe('ssoUnknownAccount');
    expect(await auditCount('sso.refused')).toBe(1);
    expect((await app.call('GET', `${SPM_URL}/user/newcomer`, admin)).statusCode).toBe(404);

    await configure({ unknownAccount: 'create' });
    const { query, browser } = await signIn('newcomer');
    const session = await redeem(query.get('sso') ?? '', browser);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()).toMatchObject({ id: 'newcomer', isAdmin: false, returnPath: '/app/dashboard' });
    const tenant = (await app.call('GET', `${SPM_URL}/user/newcomer`, admin)).json();
    expect(tenant).toMatchObject({ id: 'newcomer', type: 1, industry: 'coal', grant: null });
    expect(await auditCount('sso.tenantCreate', 'newcomer')).toBe(1);
    // No password was set: it cannot sign in with one.
    const byPassword = await app.call('POST', `${SPM_URL}/login`, undefined, {
      username: 'newcomer',
      password: wire(TENANT_PASSWORD),
    });
    expect(byPassword.statusCode).toBe(400);
    // The next sign-in finds the same tenant.
    const again = await signIn('newcomer');
    expect((await redeem(again.query.get('sso') ?? '', again.browser)).json()).toMatchObject({ id: 'newcomer' });
    expect(await auditCount('sso.tenantCreate')).toBe(1);
  });

  it('links an e-mail identity to a tenant of its own', async () => {
    await configure({ accountClaim: 'email', unknownAccount: 'create' });
    provider.identities.set('mail-user', { sub: 'mail-user', email: 'Ops@Example.com' });
    const first = await signIn('mail-user');
    const made = (await redeem(first.query.get('sso') ?? '', first.browser)).json<{ id: string; name: string }>();
    expect(made.id).toMatch(/^t[0-9a-f]{10}$/);
    expect(made.name).toBe('ops@example.com');
    const second = await signIn('mail-user');
    expect((await redeem(second.query.get('sso') ?? '', second.browser)).json()).toMatchObject({ id: made.id });
  });

  it('lands only on the console’s own routes (no open redirect)', async () => {
    for (const target of ['//evil.example/app', 'https://evil.example', '/app/../../x', '/login', '/app\\@evil']) {
      const { query, browser } = await signIn('acme', target);
      expect((await redeem(query.get('sso') ?? '', browser)).json()).toMatchObject({ returnPath: '/app/dashboard' });
    }
  });
});
