import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../../db/schema.js';
import {
  adminWithLicence,
  createProject,
  createTenant,
  day,
  grant,
  projectBody,
  SPM_URL,
  TENANT_PASSWORD,
} from '../../test/fixtures.js';
import { selfSigned } from '../../test/self-signed.js';
import { ADMIN_PASSWORD, createTestApp, ENGINE, type TestApp, wire } from '../../test/test-app.js';
import { SiteRepository } from './site.repository.js';
import { SiteListeners } from './site-listeners.js';

let t: TestApp;
let admin: string;
let acme: string;
/** The TLS port of isUseHttps domains (SNI). */
let httpsPort: number;

const htmlDir = (id: string) => path.join(t.dataDir, 'projects', id, 'html');
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  project: string,
  url: string,
  token?: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url: `/admin/_p_${project}/api${url}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function signIn(project: string, username: string, password: string, owner = false): Promise<string> {
  const response = await api('POST', project, '/login', undefined, { username, password: wire(password), owner });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ token: string }>().token;
}

beforeAll(async () => {
  httpsPort = await freePort();
  t = await createTestApp({ GANTRY_SITES_HTTPS_PORT: String(httpsPort) });
  admin = await adminWithLicence(t);
  await createTenant(t, admin, 'acme');
  await createTenant(t, admin, 'other');
  await createTenant(t, admin, 'third');
  acme = await t.login('acme', TENANT_PASSWORD);
  const other = await t.login('other', TENANT_PASSWORD);
  const third = await t.login('third', TENANT_PASSWORD);
  await createProject(t, acme, { id: 'plant1', name: 'Plant One' });
  await createProject(t, other, { id: 'plant2', name: 'Plant Two' });
  await createProject(t, acme, { id: 'plant3' });
  await createProject(t, acme, {
    id: 'plant4',
    grant: grant(t, {
      startTime: day(t, 3),
      validityPeriod: 90,
      userCount: 2,
      flow: { tableCount: 2 },
      dataGathering: { point: 100 },
    }),
  });
  await createProject(t, acme, { id: 'plant5' });
  await createProject(t, third, { id: 'plant6' });
  await t.call('PATCH', `${SPM_URL}/setting`, admin, { captcha: 'off' });
}, 60_000);
afterAll(() => t.close());

describe(`front site (${ENGINE})`, () => {
  it('without a package: a page with the name, the project logo and background, a link to the back office', async () => {
    const set = await t.call('PATCH', `${SPM_URL}/setting`, admin, {
      project_logo: 'https://cdn.example.com/logo.png',
      project_backgroundImage: 'https://cdn.example.com/bg.jpg',
    });
    expect(set.statusCode, set.body).toBe(200);
    const response = await get('/_p_plant1/?lang=en');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('Welcome to Plant One');
    expect(response.body).toContain('src="https://cdn.example.com/logo.png"');
    expect(response.body).toContain('class="background" src="https://cdn.example.com/bg.jpg"');
    expect(response.body).toContain('href="/admin/_p_plant1/"');
    expect(response.body).not.toMatch(/<script|\sstyle=/i);
    expect((await get('/_p_plant1')).headers.location).toBe('/_p_plant1/');
  });

  it('speaks the system language, or the one `?lang=` names, whatever the browser asks (issue 32)', async () => {
    const welcome = async (url: string) =>
      /<h1>([^<]*)<\/h1>/.exec((await get(url, { 'accept-language': 'en' })).body)?.[1];
    const backOfficeLang = async (url: string) => /data-lang="(\w+)"/.exec((await get(url)).body)?.[1];
    expect(await welcome('/_p_plant1/')).toBe('欢迎访问 Plant One');
    expect(await backOfficeLang('/admin/_p_plant1/')).toBe('zh_Hans');
    expect((await t.call('PATCH', `${SPM_URL}/setting`, admin, { language: 'en' })).statusCode).toBe(200);
    try {
      expect(await welcome('/_p_plant1/')).toBe('Welcome to Plant One');
      expect(await backOfficeLang('/admin/_p_plant1/')).toBe('en');
      expect(await welcome('/_p_plant1/?lang=zh')).toBe('欢迎访问 Plant One');
      expect(await backOfficeLang('/admin/_p_plant1/?lang=zh_Hans')).toBe('zh_Hans');
      expect(await welcome('/_p_plant1/?lang=xx')).toBe('Welcome to Plant One');
    } finally {
      await t.call('PATCH', `${SPM_URL}/setting`, admin, { language: 'zh_Hans' });
    }
  });

  it('serves the html package: types, caching headers, ETag / Last-Modified revalidation, SPA fallback', async () => {
    await mkdir(path.join(htmlDir('plant1'), 'assets'), { recursive: true });
    await mkdir(path.join(htmlDir('plant1'), 'docs'), { recursive: true });
    await writeFile(path.join(htmlDir('plant1'), 'index.html'), '<!doctype html><title>Plant app</title>');
    await writeFile(path.join(htmlDir('plant1'), 'assets', 'app-3f9a1c2b.js'), 'console.log(1)');
    await writeFile(path.join(htmlDir('plant1'), 'style.css'), 'body{color:red}');
    await writeFile(path.join(htmlDir('plant1'), 'docs', 'index.html'), 'docs page');
    const stamp = new Date('2026-01-02T03:04:05Z');
    await utimes(path.join(htmlDir('plant1'), 'style.css'), stamp, stamp);

    const index = await get('/_p_plant1/');
    expect(index.statusCode).toBe(200);
    expect(index.body).toBe('<!doctype html><title>Plant app</title>');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    // On the console's origin the package runs sandboxed (it cannot read the console's tokens).
    expect(index.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
    expect(index.headers['content-security-policy']).not.toContain('allow-same-origin');
    // …and submits no form anywhere: no sign-in form of a tenant's page posts from the console's host.
    const directives = (answer: { headers: Record<string, unknown> }) =>
      String(answer.headers['content-security-policy'])
        .split(';')
        .map((directive) => directive.trim());
    expect(directives(index)).toContain("form-action 'none'");
    expect(directives(await get('/_p_plant1/some/spa/route'))).toContain("form-action 'none'");

    const script = await get('/_p_plant1/assets/app-3f9a1c2b.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Loadable by the sandboxed (opaque-origin) page itself.
    expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');

    const css = await get('/_p_plant1/style.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=300');
    expect(css.headers['last-modified']).toBe(stamp.toUTCString());
    const etag = css.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await get('/_p_plant1/style.css', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await get('/_p_plant1/style.css', { 'if-modified-since': stamp.toUTCString() })).statusCode).toBe(304);
    expect((await get('/_p_plant1/style.css', { 'if-none-match': 'W/"other"' })).statusCode).toBe(200);

    // A page address of the app (no extension) falls back to index.html; a missing file is a 404.
    const route = await get('/_p_plant1/orders/42?tab=1');
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('Plant app');
    expect((await get('/_p_plant1/assets/missing.js')).statusCode).toBe(404);
    // A folder gives its index.html, never a listing.
    expect((await get('/_p_plant1/docs/')).body).toBe('docs page');
    expect((await get('/_p_plant1/assets/')).body).toContain('Plant app');
  });

  it('its files carry the security headers every other answer has (set without helmet, the same)', async () => {
    const file = await get('/_p_plant1/style.css');
    const consoleAnswer = await get(`${SPM_URL}/setting`);
    const security = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(headers).filter(([name]) =>
          /^(cross-origin-opener-policy|origin-agent-cluster|referrer-policy|x-content-type-options|x-dns-prefetch-control|x-download-options|x-frame-options|x-permitted-cross-domain-policies|x-xss-protection)$/.test(
            name,
          ),
        ),
      );
    expect(Object.keys(security(consoleAnswer.headers))).toHaveLength(9);
    expect(security(file.headers)).toEqual(security(consoleAnswer.headers));
    // A page of the front site (a problem page, the default page) has them too.
    expect(security((await get('/_p_missing/')).headers)).toEqual(security(consoleAnswer.headers));
  });

  it('never leaves the package: traversal and symbolic links refused', async () => {
    await mkdir(htmlDir('plant2'), { recursive: true });
    await writeFile(path.join(htmlDir('plant2'), 'secret.txt'), 'plant2 secret');
    await writeFile(path.join(t.dataDir, 'outside.txt'), 'outside secret');
    await symlink(path.join(t.dataDir, 'outside.txt'), path.join(htmlDir('plant1'), 'link.txt'));
    for (const url of [
      '/_p_plant1/..%2f..%2fplant2%2fhtml%2fsecret.txt',
      '/_p_plant1/%2e%2e/%2e%2e/plant2/html/secret.txt',
      '/_p_plant1/..%5c..%5cplant2%5chtml%5csecret.txt',
      '/_p_plant1/%2e%2e%2f%2e%2e%2f%2e%2e%2foutside.txt',
      '/_p_plant1/link.txt',
      '/_p_plant1/%00.txt',
    ]) {
      const response = await get(url);
      // 404 (no such file in the package), 400 for a NUL character (refused before routing).
      expect([400, 404], url).toContain(response.statusCode);
      expect(response.body, url).not.toContain('secret');
    }
  });

  it('a project that does not exist: a 404 page', async () => {
    const response = await get('/_p_nothing/');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('项目不存在');
  });
});

describe(`states that close both sites (${ENGINE})`, () => {
  it('a disabled project, a disabled tenant, a grant not started, a grant ended: a page saying so, calls refused', async () => {
    expect((await t.call('PATCH', `${SPM_URL}/project/plant3/status`, acme, { status: false })).statusCode).toBe(200);
    expect((await t.call('PATCH', `${SPM_URL}/user/third/disable`, admin)).statusCode).toBe(200);
    const ended = { ...grant(t, { startTime: day(t, -30), validityPeriod: 10 }), features: [] };
    await t.database.db.update(projects).set({ grant: ended }).where(eq(projects.id, 'plant5'));
    const cases = [
      ['plant3', 'siteProjectDisabled', 'This project is disabled'],
      ['plant6', 'siteTenantDisabled', 'The tenant owning this project is disabled'],
      ['plant4', 'siteGrantNotStarted', `has not started yet (it starts on ${day(t, 3)})`],
      ['plant5', 'siteGrantEnded', `ended on ${day(t, -21)}`],
    ] as const;
    for (const [id, code, text] of cases) {
      for (const url of [`/_p_${id}/`, `/admin/_p_${id}/`]) {
        const page = await get(`${url}?lang=en`);
        expect(page.statusCode, url).toBe(403);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.body, url).toContain(text);
        expect(page.body).toContain(`data-reason="${code}"`);
      }
      const login = await api('POST', id, '/login', undefined, {
        username: 'acme',
        password: wire(TENANT_PASSWORD),
        owner: true,
      });
      expect(login.statusCode, id).toBe(403);
      expect(login.json().code).toBe(code);
    }
  });

  it('a session opened before the project was disabled is refused after', async () => {
    const token = await signIn('plant1', 'acme', TENANT_PASSWORD, true);
    expect((await api('GET', 'plant1', '/me', token)).statusCode).toBe(200);
    await t.call('PATCH', `${SPM_URL}/project/plant1/status`, acme, { status: false });
    const refused = await api('GET', 'plant1', '/me', token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('siteProjectDisabled');
    await t.call('PATCH', `${SPM_URL}/project/plant1/status`, acme, { status: true });
    expect((await api('GET', 'plant1', '/me', token)).statusCode).toBe(200);
  });
});

describe(`back office (${ENGINE})`, () => {
  let owner: string;
  let user1: string;

  it('serves its page (a script file, no inline script)', async () => {
    const page = await get('/admin/_p_plant1/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<script type="module" src="/_site/back-office.js"></script>');
    expect(page.body).toContain('data-name="Plant One"');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await get('/_site/back-office.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('function sha256');
  });

  it('the project administrator signs in with the console account and manages users within userCount', async () => {
    owner = await signIn('plant1', 'acme', TENANT_PASSWORD, true);
    const me = await api('GET', 'plant1', '/me', owner);
    expect(me.json()).toMatchObject({
      kind: 'owner',
      manager: true,
      project: { id: 'plant1', name: 'Plant One', grant: { userCount: 2, validityPeriod: 100 } },
    });
    const role = await api('POST', 'plant1', '/roles', owner, { name: 'Operators' });
    expect(role.statusCode, role.body).toBe(200);
    const roleId = role.json().id as string;
    const create = (username: string, status = true) =>
      api('POST', 'plant1', '/users', owner, { username, password: wire('Passw0rd'), status, roles: [roleId] });
    expect((await create('u1')).statusCode).toBe(200);
    expect((await create('u2')).statusCode).toBe(200);
    const third = await create('u3');
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({ code: 'siteUserLimit', license: expect.stringContaining('2') });
    const off = await create('u3', false);
    expect(off.statusCode).toBe(200);
    const enable = await api('PATCH', 'plant1', `/users/${off.json().id}`, owner, { status: true });
    expect(enable.json().code).toBe('siteUserLimit');
    expect((await create('u1', false)).json().code).toBe('siteUsernameTaken');
    const users = (await api('GET', 'plant1', '/users', owner)).json() as Array<Record<string, unknown>>;
    expect(users.map((u) => [u.username, u.status]).sort()).toEqual([
      ['u1', true],
      ['u2', true],
      ['u3', false],
    ]);
    expect(JSON.stringify(users)).not.toContain('argon2');
    expect((await api('DELETE', 'plant1', `/roles/${roleId}`, owner)).json().code).toBe('siteRoleInUse');
  });

  it('a project user signs in, sees the project and grant, uses the media library, manages no users', async () => {
    user1 = await signIn('plant1', 'u1', 'Passw0rd');
    const me = (await api('GET', 'plant1', '/me', user1)).json();
    expect(me).toMatchObject({ kind: 'user', username: 'u1', manager: false, project: { name: 'Plant One' } });
    expect(me.project.grant.endTime).toBe(day(t, 100));
    expect((await api('GET', 'plant1', '/users', user1)).json().code).toBe('siteOwnerOnly');
    expect((await api('POST', 'plant1', '/roles', user1, { name: 'x' })).statusCode).toBe(403);
    expect((await api('POST', 'plant1', '/media/dir', user1, { path: 'docs' })).statusCode).toBe(200);
    const tree = (await api('GET', 'plant1', '/media/tree', user1)).json() as Array<{ name: string }>;
    expect(tree.map((n) => n.name)).toEqual(['docs']);
    expect((await api('POST', 'plant1', '/media/dir', user1, { path: 'public/x' })).statusCode).toBe(404);
  });

  it('wrong passwords: the console message, then the lockout of the settings', async () => {
    await t.call('PATCH', `${SPM_URL}/setting`, admin, { errorLogin: { count: 2, duration: { count: 1, unit: 'm' } } });
    const wrong = () => api('POST', 'plant1', '/login', undefined, { username: 'u2', password: wire('Wrong000') });
    const first = await wrong();
    expect(first.statusCode).toBe(400);
    expect(first.json().code).toBe('badCredentials');
    expect((await wrong()).json().code).toBe('accountFrozen');
    const right = await api('POST', 'plant1', '/login', undefined, { username: 'u2', password: wire('Passw0rd') });
    expect(right.json().code).toBe('accountFrozen');
    t.advance(61_000);
    expect(
      (await api('POST', 'plant1', '/login', undefined, { username: 'u2', password: wire('Passw0rd') })).statusCode,
    ).toBe(200);
    await t.call('PATCH', `${SPM_URL}/setting`, admin, { errorLogin: { count: 0, duration: { count: 1, unit: 'm' } } });
  });

  it('sessions are separate: a console token is not a project token, nor the reverse, nor one project’s another’s', async () => {
    expect((await api('GET', 'plant1', '/me', acme)).statusCode).toBe(401);
    expect((await api('GET', 'plant1', '/me', admin)).statusCode).toBe(401);
    expect((await t.call('GET', `${SPM_URL}/login/current/user`, user1)).statusCode).toBe(401);
    expect((await t.call('GET', `${SPM_URL}/login/current/user`, owner)).statusCode).toBe(401);
    expect((await api('GET', 'plant2', '/me', user1)).statusCode).toBe(401);
    expect((await api('GET', 'plant2', '/media/tree', owner)).statusCode).toBe(401);
    // acme is not plant2's administrator, and u1 is not one of plant2's users.
    const asOwner = await api('POST', 'plant2', '/login', undefined, {
      username: 'acme',
      password: wire(TENANT_PASSWORD),
      owner: true,
    });
    expect(asOwner.json().code).toBe('badCredentials');
    const asUser = await api('POST', 'plant2', '/login', undefined, { username: 'u1', password: wire('Passw0rd') });
    expect(asUser.json().code).toBe('badCredentials');
  });

  it('a disabled user’s sessions end; signing out ends the token', async () => {
    const users = (await api('GET', 'plant1', '/users', owner)).json() as Array<{ id: string; username: string }>;
    const u2 = users.find((u) => u.username === 'u2');
    const token = await signIn('plant1', 'u2', 'Passw0rd');
    await api('PATCH', 'plant1', `/users/${u2?.id}`, owner, { status: false });
    expect((await api('GET', 'plant1', '/me', token)).statusCode).toBe(401);
    const login = await api('POST', 'plant1', '/login', undefined, { username: 'u2', password: wire('Passw0rd') });
    expect(login.json().code).toBe('accountDisabled');
    expect((await api('POST', 'plant1', '/logout', user1)).statusCode).toBe(200);
    expect((await api('GET', 'plant1', '/me', user1)).statusCode).toBe(401);
  });

  it('single sign-on: a one-time, short-lived code from the console, for its own project only', async () => {
    const sso = () => t.call('POST', `${SPM_URL}/project/plant1/sso`, acme);
    expect((await sso()).json().code).toBe('siteSsoOff');
    const [row] = await t.database.db.select({ grant: projects.grant }).from(projects).where(eq(projects.id, 'plant1'));
    const withOauth = { ...(row?.grant ?? grant(t)), features: ['Oauth'] };
    await t.database.db.update(projects).set({ hasSso: true, grant: withOauth }).where(eq(projects.id, 'plant1'));
    expect(
      (await t.call('POST', `${SPM_URL}/project/plant1/sso`, await t.login('other', TENANT_PASSWORD))).statusCode,
    ).toBe(404);
    const { code } = (await sso()).json() as { code: string };
    const exchanged = await api('POST', 'plant1', '/sso', undefined, { code });
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const token = exchanged.json().token as string;
    expect(token).not.toBe(acme);
    expect((await api('GET', 'plant1', '/me', token)).json()).toMatchObject({ kind: 'owner', username: 'acme' });
    expect((await api('POST', 'plant1', '/sso', undefined, { code })).json().code).toBe('siteSsoCodeInvalid');
    const other = (await sso()).json().code as string;
    expect((await api('POST', 'plant2', '/sso', undefined, { code: other })).statusCode).toBe(401);
    expect((await api('POST', 'plant1', '/sso', undefined, { code: other })).statusCode).toBe(401);
    const late = (await sso()).json().code as string;
    t.advance(61_000);
    expect((await api('POST', 'plant1', '/sso', undefined, { code: late })).json().code).toBe('siteSsoCodeInvalid');
  });

  it('the last free place of userCount goes to one of two concurrent creations', async () => {
    const users = (await api('GET', 'plant1', '/users', owner)).json() as Array<{ status: boolean }>;
    expect(users.filter((u) => u.status)).toHaveLength(1);
    const create = (username: string) =>
      api('POST', 'plant1', '/users', owner, { username, password: wire('Passw0rd') });
    const answers = await Promise.all([create('race1'), create('race2')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('a project user has the public folder with the permissions both the platform and the project give', async () => {
    await t.call('PATCH', `${SPM_URL}/setting`, admin, {
      mediaLibrary: { publicDirEnable: true, publicDirFeature: ['mkDir', 'upload'] },
    });
    await t.database.db
      .update(projects)
      .set({ advanced: { mediaLibraryPublicDirEnable: true, mediaLibraryPublicDirFeature: ['mkDir', 'delete'] } })
      .where(eq(projects.id, 'plant1'));
    const token = await signIn('plant1', 'u1', 'Passw0rd');
    const tree = (await api('GET', 'plant1', '/media/tree', token)).json() as Array<{ name: string }>;
    expect(tree.map((n) => n.name)).toContain('public');
    expect((await api('POST', 'plant1', '/media/dir', token, { path: 'public/shared' })).statusCode).toBe(200);
    // delete: the project allows it, the platform does not.
    const removal = await api('DELETE', 'plant1', `/media?path=${encodeURIComponent('public/shared')}`, token);
    expect(removal.statusCode).toBe(403);
    expect(removal.json().code).toBe('mediaPublicDenied');
  });
});

/** A port nobody listens on now (≥ 5001, the project port range). */
async function freePort(): Promise<number> {
  for (;;) {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    if (port >= 5001) return port;
  }
}

/** A plain HTTP GET on loopback: status, headers and body, or the connection error's code. */
function fetchLoopback(port: number, urlPath: string, host?: string) {
  return fetch(`http://127.0.0.1:${port}${urlPath}`, host ? { headers: { host } } : {}).then(
    async (response) => ({ status: response.status, headers: response.headers, body: await response.text() }),
    (error: Error & { cause?: { code?: string } }) => ({
      status: 0,
      headers: new Headers(),
      body: error.cause?.code ?? '',
    }),
  );
}

describe(`ports and domains (${ENGINE})`, () => {
  // The administrator's own project (the platform's grant has room for every save).
  const save = (overrides: Record<string, unknown>) =>
    t.call('PUT', `${SPM_URL}/project/plant7`, admin, projectBody(t, { name: 'Plant Seven', ...overrides }));
  beforeAll(async () => {
    await createProject(t, admin, { id: 'plant7', name: 'Plant Seven' });
    await mkdir(htmlDir('plant7'), { recursive: true });
    await writeFile(path.join(htmlDir('plant7'), 'index.html'), '<!doctype html><title>Plant app</title>');
  });

  it('a port binds on save, moves, and unbinds when removed, without a restart', async () => {
    const [first, second] = [await freePort(), await freePort()];
    const saved = await save({ port: first });
    expect(saved.statusCode, saved.body).toBe(200);
    const front = await fetchLoopback(first, '/');
    expect(front.status).toBe(200);
    expect(front.body).toContain('Plant app');
    // Its own origin: the package is not sandboxed there.
    expect(front.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    expect((await fetchLoopback(first, '/orders/1')).body).toContain('Plant app');
    const office = await fetchLoopback(first, '/admin');
    expect(office.status).toBe(200);
    expect(office.body).toContain('data-base="/admin"');
    const state = await fetchLoopback(first, '/admin/api/state');
    expect(JSON.parse(state.body)).toMatchObject({ project: { id: 'plant7', name: 'Plant Seven' } });
    expect((await fetchLoopback(first, '/_site/back-office.js')).status).toBe(200);
    // The console is not on a project's port.
    expect((await fetchLoopback(first, '/portal/rest/spm/setting')).body).not.toContain('"name"');

    expect((await save({ port: second })).statusCode).toBe(200);
    expect((await fetchLoopback(first, '/')).status).toBe(0);
    expect((await fetchLoopback(second, '/')).status).toBe(200);

    expect((await save({ port: null })).statusCode).toBe(200);
    expect((await fetchLoopback(second, '/')).status).toBe(0);
  });

  it('another process follows a site message, and every project after missed messages (resync)', async () => {
    // The listeners of a second process on this database, on another loopback address.
    const other = new SiteListeners(t.app, '127.0.0.2', new SiteRepository(t.database.db), t.app.log);
    await other.start();
    try {
      const port = await freePort();
      expect((await save({ port, domain: 'seven.example.com', isUseDomain: true })).statusCode).toBe(200);
      expect(other.portOf('plant7')).toBeUndefined();
      await other.changed('plant7', false);
      expect(other.portOf('plant7')).toBe(port);
      expect(other.projectOfHost('seven.example.com')).toBe('plant7');
      const there = await fetch(`http://127.0.0.2:${port}/`);
      expect(await there.text()).toContain('Plant app');
      // Messages missed (the bus reconnected): one resync follows every project.
      expect((await save({ port: null, domain: 'seven.example.com', isUseDomain: false })).statusCode).toBe(200);
      expect(other.portOf('plant7')).toBe(port);
      await other.resync();
      expect(other.portOf('plant7')).toBeUndefined();
      expect(other.projectOfHost('seven.example.com')).toBeUndefined();
      await expect(fetch(`http://127.0.0.2:${port}/`)).rejects.toThrow();
    } finally {
      await other.close();
    }
  });

  it("a port outside the administrator's range: refused before any bind (no probing), a kept port stays", async () => {
    const setPorts = (sitePorts: unknown) => t.call('PATCH', `${SPM_URL}/setting`, admin, { sitePorts });
    // The range itself: within 5001-65535, lowest first.
    const reversed = await setPorts({ min: 6000, max: 5999 });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().fields).toEqual({ 'sitePorts.max': '最小端口不能大于最大端口' });
    const wide = await setPorts({ min: 80, max: 70000 });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().fields).toEqual({
      'sitePorts.min': '端口范围为5001-65535',
      'sitePorts.max': '端口范围为5001-65535',
    });
    expect((await t.call('GET', `${SPM_URL}/setting`, admin)).json().sitePorts).toEqual({ min: 5001, max: 65535 });

    // A port another program holds, outside the range: the range's refusal, not "in use".
    const held = await freePort();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(held, '127.0.0.1', resolve));
    const kept = await freePort();
    try {
      expect((await save({ port: kept })).statusCode).toBe(200);
      // Narrowed to the one port the project has (the held one is outside: another port).
      expect((await setPorts({ min: kept, max: kept })).statusCode).toBe(200);
      const refused = await save({ port: held });
      expect(refused.statusCode).toBe(400);
      const message = `端口须在管理员设定的范围 ${kept}-${kept} 之内`;
      expect(refused.json()).toEqual({ code: 'sitePortOutsideRange', message, fields: { port: message } });
      expect((await t.call('GET', `${SPM_URL}/project/plant7`, admin)).json().port).toBe(kept);
      // The port the project has stays its own, the range narrowed or not.
      expect((await save({ port: kept, name: 'Plant 7' })).statusCode).toBe(200);
      expect((await fetchLoopback(kept, '/')).status).toBe(200);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
      expect((await setPorts({ min: 5001, max: 65535 })).statusCode).toBe(200);
      expect((await save({ port: null })).statusCode).toBe(200);
    }
  });

  it('a port another program holds: a clear error on save, nothing changed, the server still up', async () => {
    const port = await freePort();
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      const refused = await save({ port });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'sitePortInUse',
        message: `端口 ${port} 已被其他程序占用`,
        fields: { port: `端口 ${port} 已被其他程序占用` },
      });
      const project = await t.call('GET', `${SPM_URL}/project/plant7`, admin);
      expect(project.json().port ?? null).toBeNull();
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect((await get('/_p_plant7/')).statusCode).toBe(200);
  });

  it('a disabled project on its port: the page saying so', async () => {
    const port = await freePort();
    expect((await save({ port })).statusCode).toBe(200);
    await t.call('PATCH', `${SPM_URL}/project/plant7/status`, admin, { status: false });
    const page = await fetchLoopback(port, '/admin');
    expect(page.status).toBe(403);
    expect(page.body).toContain('siteProjectDisabled');
    await t.call('PATCH', `${SPM_URL}/project/plant7/status`, admin, { status: true });
    expect((await save({ port: null })).statusCode).toBe(200);
  });

  it('a domain routes by Host on the main port, updated on save', async () => {
    const saved = await save({ domain: 'plant7.example.com', isUseDomain: true });
    expect(saved.statusCode, saved.body).toBe(200);
    const front = await get('/', { host: 'Plant7.Example.com' });
    expect(front.statusCode).toBe(200);
    expect(front.body).toContain('Plant app');
    expect((await get('/admin', { host: 'plant7.example.com:8080' })).body).toContain('data-base="/admin"');
    // Other hosts still reach the console.
    expect((await get('/', { host: 'localhost' })).headers.location).toBe('/portal/');
    expect((await save({ domain: 'plant7.example.com', isUseDomain: false })).statusCode).toBe(200);
    expect((await get('/', { host: 'plant7.example.com' })).headers.location).toBe('/portal/');
  });
});

/** An HTTPS GET on loopback naming `servername` (SNI and Host), trusting `ca`: status, body and the certificate served. */
function fetchSecure(port: number, servername: string, ca: Buffer) {
  return new Promise<{ status: number; body: string; fingerprint: string } | { error: string }>((resolve) => {
    const request = https.get(
      { host: '127.0.0.1', port, servername, headers: { host: servername }, path: '/', ca, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          const socket = response.socket as import('node:tls').TLSSocket;
          resolve({
            status: response.statusCode ?? 0,
            body,
            fingerprint: socket.getPeerCertificate().fingerprint256 ?? '',
          });
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

const certificateUpload = (id: string, pair: { key: Buffer; pem: Buffer }) => {
  const boundary = '----gantrysites';
  const part = (name: string, body: Buffer | string, file?: string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n`,
      ),
      Buffer.from(body),
      Buffer.from('\r\n'),
    ]);
  return t.app.inject({
    method: 'POST',
    url: `${SPM_URL}/project/cert`,
    headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      part('id', id),
      part('domain', 'secure.example.com'),
      part('certKey', pair.key, 'site.key'),
      part('certPem', pair.pem, 'site.pem'),
      Buffer.from(`--${boundary}--\r\n`),
    ]),
  });
};

describe(`HTTPS by SNI (${ENGINE})`, () => {
  it('serves a domain over TLS with its uploaded certificate, reloaded when replaced; a bad pair is refused on upload', async () => {
    await createProject(t, admin, { id: 'plant8', name: 'Secure plant' });
    const first = selfSigned('secure.example.com');
    const second = selfSigned('secure.example.com');
    const mismatched = await certificateUpload('plant8', { key: second.key, pem: first.pem });
    expect(mismatched.statusCode).toBe(400);
    expect(mismatched.json()).toMatchObject({ code: 'siteCertificateMismatch', message: '私钥与证书不匹配' });
    expect((await certificateUpload('plant8', first)).statusCode).toBe(200);
    const saved = await t.call(
      'PUT',
      `${SPM_URL}/project/plant8`,
      admin,
      projectBody(t, { name: 'Secure plant', domain: 'secure.example.com', isUseDomain: true, isUseHttps: true }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const port = httpsPort;
    const served = await fetchSecure(port, 'secure.example.com', first.pem);
    expect(served).toMatchObject({ status: 200 });
    expect('body' in served && served.body).toContain('欢迎访问 Secure plant');
    // Another name: no certificate, no handshake.
    expect(await fetchSecure(port, 'unknown.example.com', first.pem)).toHaveProperty('error');
    // A new pair replaces the old at once.
    expect((await certificateUpload('plant8', second)).statusCode).toBe(200);
    expect(await fetchSecure(port, 'secure.example.com', first.pem)).toHaveProperty('error');
    const renewed = await fetchSecure(port, 'secure.example.com', second.pem);
    expect(renewed).toMatchObject({ status: 200 });
  });
});

describe(`tables in the back office (${ENGINE})`, () => {
  it('published tables only; a project user works under the record permissions; nothing of another project', async () => {
    // The administrator's own projects (the tenants' grants are used up by now).
    await createProject(t, admin, { id: 'plant9', name: 'Tables plant' });
    await createProject(t, admin, { id: 'plant10' });
    const designer = (method: 'POST' | 'PUT', url: string, payload: unknown, project = 'plant9') =>
      t.app.inject({
        method,
        url: `${SPM_URL}${url}`,
        headers: { authorization: admin, 'x-request-project': project },
        payload: payload as object,
      });
    const made = await designer('POST', '/tables', { name: 'orders' });
    expect(made.statusCode, made.body).toBe(200);
    const table = made.json<{ id: string }>().id;
    await designer('PUT', `/tables/${table}/draft`, {
      fields: [
        { name: 'note', title: 'Note', type: 'text' },
        { name: 'qty', title: 'Quantity', type: 'number' },
      ],
      permissions: { view: [{ records: 'self' }], add: [{ records: 'all' }], manage: [{ records: 'self' }] },
    });
    expect((await designer('POST', `/tables/${table}/publish`, {})).statusCode).toBe(200);
    const draftOnly = (await designer('POST', '/tables', { name: 'drafts' })).json<{ id: string }>().id;
    // A table of another project, named alike.
    const foreign = (await designer('POST', '/tables', { name: 'orders' }, 'plant10')).json<{ id: string }>().id;

    const owner = await signIn('plant9', 'admin', ADMIN_PASSWORD, true);
    for (const username of ['ann', 'bob']) {
      const created = await api('POST', 'plant9', '/users', owner, { username, password: wire('Passw0rd') });
      expect(created.statusCode, created.body).toBe(200);
    }
    const ann = await signIn('plant9', 'ann', 'Passw0rd');
    const bob = await signIn('plant9', 'bob', 'Passw0rd');

    const listed = await api('GET', 'plant9', '/tables', ann);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        id: table,
        name: 'orders',
        fields: [expect.objectContaining({ name: 'note' }), expect.objectContaining({ name: 'qty' })],
      }),
    ]);
    expect(listed.body).not.toContain('permissions');
    expect(listed.body).not.toContain(draftOnly);

    const mine = await api('POST', 'plant9', `/tables/${table}/records`, ann, { note: 'by ann', qty: 3 });
    expect(mine.statusCode, mine.body).toBe(200);
    const annRecord = mine.json<{ id: string; createdBy: string }>();
    const bobRecord = (await api('POST', 'plant9', `/tables/${table}/records`, bob, { note: 'by bob' })).json<{
      id: string;
    }>();
    const invalid = await api('POST', 'plant9', `/tables/${table}/records`, ann, { qty: 'many' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'recordInvalid', fields: { qty: expect.any(String) } });

    // View 'self': each sees their own; the project administrator sees every record.
    const notes = async (token: string) =>
      ((await api('GET', 'plant9', `/tables/${table}/records`, token)).json() as Array<{ data: { note: string } }>)
        .map((record) => record.data.note)
        .sort();
    expect(await notes(ann)).toEqual(['by ann']);
    expect(await notes(bob)).toEqual(['by bob']);
    expect(await notes(owner)).toEqual(['by ann', 'by bob']);
    // Manage 'self': bob can neither read, change nor delete ann's record.
    expect((await api('GET', 'plant9', `/tables/${table}/records/${annRecord.id}`, bob)).statusCode).toBe(404);
    expect(
      (await api('PATCH', 'plant9', `/tables/${table}/records/${annRecord.id}`, bob, { note: 'x' })).statusCode,
    ).toBe(404);
    expect((await api('DELETE', 'plant9', `/tables/${table}/records/${annRecord.id}`, bob)).statusCode).toBe(404);
    const edited = await api('PATCH', 'plant9', `/tables/${table}/records/${annRecord.id}`, ann, { note: 'edited' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ data: { note: 'edited', qty: 3 } });
    expect((await api('DELETE', 'plant9', `/tables/${table}/records/${bobRecord.id}`, bob)).statusCode).toBe(200);
    expect(await notes(owner)).toEqual(['edited']);
    // An unpublished table has no records to show.
    expect((await api('GET', 'plant9', `/tables/${draftOnly}/records`, ann)).statusCode).toBeGreaterThanOrEqual(400);

    // Isolation: ann's token is nothing in plant10; plant10's table is not found through plant9.
    expect((await api('GET', 'plant10', '/tables', ann)).statusCode).toBe(401);
    expect((await api('GET', 'plant10', `/tables/${foreign}/records`, ann)).statusCode).toBe(401);
    const across = await api('GET', 'plant9', `/tables/${foreign}/records`, owner);
    expect(across.statusCode).toBe(404);
    expect((await api('POST', 'plant9', `/tables/${foreign}/records`, ann, { note: 'x' })).statusCode).toBe(404);
    expect((await api('GET', 'plant9', '/tables')).statusCode).toBe(401);
  });
});
