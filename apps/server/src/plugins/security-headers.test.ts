import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp, wire } from '../test/test-app.js';

/** Browser security headers on every kind of answer of the real app. */
let t: TestApp;
let consoleDir: string;
let token: string;

beforeAll(async () => {
  consoleDir = await mkdtemp(path.join(tmpdir(), 'gantry-console-'));
  await mkdir(path.join(consoleDir, 'assets'));
  await writeFile(path.join(consoleDir, 'index.html'), '<!doctype html><title>Gantry</title>');
  await writeFile(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await createTestApp({ GANTRY_CONSOLE_DIR: consoleDir });
  await t.registerAdmin();
  token = await t.login();
});
afterAll(async () => {
  await t.close();
  await rm(consoleDir, { recursive: true, force: true });
});

function directives(header: string | undefined): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

describe('security headers', () => {
  it.each([
    ['the console page', 'GET', '/portal/', undefined, 200],
    ['a console asset', 'GET', '/portal/assets/index-abc123.js', undefined, 200],
    ['a public API answer', 'GET', '/portal/rest/spm/setting', undefined, 200],
    ['a signed-in API answer', 'GET', '/portal/rest/spm/login/current/user', 'token', 200],
    ['a refusal', 'GET', '/portal/rest/spm/login/current/user', undefined, 401],
    ['an unknown path', 'GET', '/portal/rest/spm/nowhere', undefined, 404],
    ['a validation error', 'POST', '/portal/rest/spm/login', undefined, 400],
    ['a redirect', 'GET', '/', undefined, 302],
    ['a probe', 'GET', '/healthz', undefined, 200],
  ] as const)('are on %s', async (_what, method, url, auth, status) => {
    const response = await t.app.inject({
      method,
      url,
      headers: auth ? { authorization: `Bearer ${token}` } : {},
      ...(method === 'POST' ? { payload: {} } : {}),
    });
    expect(response.statusCode).toBe(status);
    const csp = directives(response.headers['content-security-policy'] as string | undefined);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(response.headers['content-security-policy']).not.toMatch(/unsafe-eval/);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('are on an address Fastify cannot decode, answered by the one error handler in the app shape', async () => {
    const helmet = (await t.app.inject({ method: 'GET', url: '/portal/rest/spm/nowhere' })).headers;
    const security = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(headers).filter(([name]) =>
          /^(content-security-policy|cross-origin-.*|origin-agent-cluster|referrer-policy|x-.*)$/.test(name),
        ),
      );
    expect(Object.keys(security(helmet))).toHaveLength(11);
    for (const url of ['/portal/rest/%E0%A4%A', '/portal/rest/spm/templates/%E0%A4%A/cover.svg', '/%zz']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
      expect(response.statusCode, url).toBe(400);
      expect(security(response.headers)).toEqual(security(helmet));
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({
        message: 'The address is not valid: it holds a malformed percent-encoding',
        code: 'badUrl',
      });
    }
    const chinese = await t.app.inject({ method: 'GET', url: '/portal/rest/%E0%A4%A' });
    expect(chinese.json().message).toBe('请求地址无效：其中的百分号编码有误');
  });
});

describe('Cache-Control', () => {
  const get = (url: string, auth = true) =>
    t.app.inject({ method: 'GET', url, headers: auth ? { authorization: `Bearer ${token}` } : {} });

  it('no-store on every answer of a signed-in call, and on the answers that carry a token', async () => {
    for (const url of [
      '/portal/rest/spm/login/current/user',
      '/portal/rest/spm/setting',
      '/portal/rest/spm/templates',
      '/portal/rest/spm/region',
      '/portal/rest/spm/templates/nope', // an error answer too
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/portal/rest/spm/login',
      payload: { username: 'admin', password: wire(ADMIN_PASSWORD) },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toHaveProperty('token');
    expect(login.headers['cache-control']).toBe('no-store');
  });

  it('leaves the public answers cacheable: console files, the guide, public pictures (even asked with a token)', async () => {
    expect((await get('/portal/assets/index-abc123.js')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await get('/portal/')).headers['cache-control']).toBe('no-cache');
    expect((await get('/guide/guide.css')).headers['cache-control']).toBe('public, max-age=3600');
    const market = await get('/portal/rest/spm/templates/heating-station', false);
    const cover = market.json<{ card_display: { cover: string } }>().card_display.cover;
    expect((await get(cover)).headers['cache-control']).toBe('public, max-age=3600');
    // A public answer to a caller without a session is not marked.
    expect((await get('/portal/rest/spm/setting', false)).headers['cache-control']).toBeUndefined();
  });
});
