/**
 * The back office's sign-in gate: every call under `/admin/_p_:id/api` needs the project's signed-in
 * caller unless it is one of the listed sign-in calls, so a route added without thought is closed;
 * and the list cannot name a call no route answers. (Each existing call's answers: site.routes.test.ts.)
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWithLicence, createProject, createTenant, TENANT_PASSWORD } from '../../test/fixtures.js';
import { createTestApp, ENGINE, type TestApp, wire } from '../../test/test-app.js';
import { backOfficeOf, PUBLIC_CALLS, registerBackOfficeGate } from './back-office-gate.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  // A call added after the others, named in no list: the gate must close it.
  t.app.get('/admin/_p_:id/api/forgotten', async (request) => ({ who: backOfficeOf(request).caller.username }));
  const admin = await adminWithLicence(t);
  await createTenant(t, admin, 'acme');
  const acme = await t.login('acme', TENANT_PASSWORD);
  await createProject(t, acme, { id: 'gated1' });
  const login = await t.app.inject({
    method: 'POST',
    url: '/admin/_p_gated1/api/login',
    payload: { username: 'acme', password: wire(TENANT_PASSWORD), owner: true },
  });
  expect(login.statusCode, login.body).toBe(200);
  token = login.json<{ token: string }>().token;
}, 60_000);
afterAll(() => t.close());

describe(`back-office sign-in gate (${ENGINE})`, () => {
  it('closes a call that is not in the public list: 401 without a token, the caller on the request with one', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/admin/_p_gated1/api/forgotten' });
    expect(anonymous.statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/admin/_p_gated1/api/forgotten',
      headers: { authorization: 'Bearer not-a-session' },
    });
    expect(wrong.statusCode).toBe(401);
    const signedIn = await t.app.inject({
      method: 'GET',
      url: '/admin/_p_gated1/api/forgotten',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toEqual({ who: 'acme' });
  });

  it("keeps another project's token out, and a missing project 404", async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/admin/_p_nosuch/api/forgotten',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('leaves the listed sign-in calls open', async () => {
    const state = await t.app.inject({ method: 'GET', url: '/admin/_p_gated1/api/state' });
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json()).toMatchObject({ project: { id: 'gated1' } });
    expect(PUBLIC_CALLS.has('GET /admin/_p_:id/api/me')).toBe(false);
  });
});

describe('back-office sign-in gate at start', () => {
  it('refuses to start when a public call names a route that does not exist', async () => {
    const app = Fastify();
    const never = () => Promise.reject(new Error('not asked at start'));
    registerBackOfficeGate(app, { usable: never, authenticate: never });
    app.get('/admin/_p_:id/api/state', async () => ({}));
    await expect(app.ready()).rejects.toThrow("The back office's public calls name routes that do not exist");
    await app.close().catch(() => undefined);
  });
});
