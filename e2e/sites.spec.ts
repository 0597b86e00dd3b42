import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '@gantry/shared';
import { type APIRequestContext, chromium } from '@playwright/test';
import { selfSigned } from '../apps/server/src/test/self-signed';
import { ADMIN_PASSWORD } from './accounts';
import { API, apiLogin, expect, expectRoute, fillLogin, test } from './helpers';
import { ensureAdmin, ensureLicence, ensureProject, ensureTenant, localToday } from './seed';

/**
 * Issue 15 in the browser: a project's front site serves its html package (its script runs, an app
 * route falls back to index.html), and its back office signs in the project administrator with the
 * console account, who adds a project user; that user signs in and works in the media library.
 * Single sign-on from the console (a one-time code in the fragment), and a domain over HTTPS (SNI)
 * with a self-signed certificate in a browser of its own that resolves the domain to loopback.
 */

const TENANT = 'siteco';
const TENANT_PASSWORD = 'Tenant1234';
const PROJECT = 'site1';
const WORKER = 'worker1';
const WORKER_PASSWORD = 'Worker123';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.join(ROOT, '.tmp', `e2e-data-${process.env.GANTRY_E2E_PORT ?? 3217}`);

const office = (url: string) => `/admin/_p_${PROJECT}/api${url}`;
/** The server's TLS port of project domains (playwright.config.ts: the suite's port + 20000). */
const HTTPS_PORT = Number(
  process.env.GANTRY_E2E_SITES_HTTPS_PORT ?? Number(process.env.GANTRY_E2E_PORT ?? 3217) + 20_000,
);
const SSO_PROJECT = 'site2';
const SECURE_PROJECT = 'site3';
const SECURE_DOMAIN = 'secure.e2e.test';

/** A project of the administrator's own, with `more` (SSO, domain…) set. */
async function adminProject(request: APIRequestContext, token: string, id: string, name: string, more: object) {
  const headers = { authorization: `Bearer ${token}` };
  const body = {
    name,
    industry: 'coal',
    projectType: 'blank',
    grant: {
      validityPeriod: 30,
      startTime: localToday(),
      userCount: 2,
      flow: { tableCount: 1 },
      dataGathering: { point: 10 },
      features: ['Oauth'],
    },
    ...more,
  };
  const existing = await request.get(`${API}/project/${id}`, { headers });
  const saved =
    existing.status() === 200
      ? await request.put(`${API}/project/${id}`, { headers, data: body })
      : await request.post(`${API}/project`, { headers, data: { id, ...body } });
  expect(saved.status(), await saved.text()).toBe(200);
}

/** The back office's calls as the project administrator: the project user of an earlier run goes. */
async function removeWorker(request: APIRequestContext): Promise<void> {
  const login = await request.post(office('/login'), {
    data: { username: TENANT, password: sha256Hex(TENANT_PASSWORD), owner: true },
  });
  expect(login.status(), await login.text()).toBe(200);
  const headers = { authorization: `Bearer ${(await login.json()).token}` };
  const users = (await (await request.get(office('/users'), { headers })).json()) as Array<{
    id: string;
    username: string;
  }>;
  for (const user of users.filter((u) => u.username === WORKER)) {
    await request.delete(office(`/users/${user.id}`), { headers });
  }
}

test.beforeAll(async ({ request }) => {
  const admin = await ensureAdmin(request);
  await ensureLicence(request, admin);
  await ensureTenant(request, admin, { id: TENANT, name: 'Site Co', password: TENANT_PASSWORD, userCount: 5 });
  const token = await apiLogin(request, TENANT, TENANT_PASSWORD);
  await ensureProject(request, token, { id: PROJECT, name: 'Harbour plant', userCount: 3 });
  // The html package, as a deployment puts it in the project's html area.
  const html = path.join(DATA, 'projects', PROJECT, 'html');
  mkdirSync(path.join(html, 'assets'), { recursive: true });
  writeFileSync(
    path.join(html, 'index.html'),
    '<!doctype html><html><head><title>Harbour</title><script src="/_p_site1/assets/app-1a2b3c4d.js" defer></script></head>' +
      '<body><h1 id="status">static</h1></body></html>',
  );
  writeFileSync(
    path.join(html, 'assets', 'app-1a2b3c4d.js'),
    "document.getElementById('status').textContent = 'app running at ' + location.pathname;",
  );
  await removeWorker(request);
});

test('the front site serves the package: its script runs, app routes fall back to index.html', async ({ page }) => {
  await page.goto(`/_p_${PROJECT}/`);
  await expect(page.locator('#status')).toHaveText(`app running at /_p_${PROJECT}/`);
  await page.goto(`/_p_${PROJECT}/orders/42`);
  await expect(page.locator('#status')).toHaveText(`app running at /_p_${PROJECT}/orders/42`);
  const missing = await page.request.get(`/_p_${PROJECT}/assets/missing.js`);
  expect(missing.status()).toBe(404);
});

test('back office: the administrator adds a project user, who signs in and uses the media library', async ({
  page,
}) => {
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto(`/admin/_p_${PROJECT}/`);
  const signIn = page.getByTestId('sign-in');
  await signIn.locator('input[name=username]').fill(TENANT);
  await signIn.locator('input[name=password]').fill(TENANT_PASSWORD);
  await signIn.locator('input[name=owner]').check();
  await signIn.getByRole('button').click();
  await expect(page.getByTestId('project-name')).toHaveText('Harbour plant');
  await expect(page.getByTestId('grant')).toContainText('3');

  await page.locator('button[data-tab=users]').click();
  const add = page.getByTestId('add-user');
  await add.locator('input[name=new-username]').fill(WORKER);
  await add.locator('input[name=new-name]').fill('Dock worker');
  await add.locator('input[name=new-password]').fill(WORKER_PASSWORD);
  await add.getByRole('button').click();
  await expect(page.getByTestId('users').locator(`tr[data-username=${WORKER}]`)).toContainText('Dock worker');
  await page.getByRole('button', { name: /退出|Sign out/ }).click();

  await signIn.locator('input[name=username]').fill(WORKER);
  await signIn.locator('input[name=password]').fill(WORKER_PASSWORD);
  await signIn.getByRole('button').click();
  await expect(page.getByTestId('who')).toContainText('Dock worker');
  await expect(page.locator('button[data-tab=users]')).toHaveCount(0);
  await page.locator('input[name=folder]').fill('manuals');
  await page.getByRole('button', { name: /新建文件夹|New folder/ }).click();
  await expect(page.getByTestId('media').locator('tr[data-path=manuals]')).toBeVisible();

  // A wrong password: the console's message, on the form.
  await page.getByRole('button', { name: /退出|Sign out/ }).click();
  await signIn.locator('input[name=username]').fill(WORKER);
  await signIn.locator('input[name=password]').fill('Wrong1234');
  await signIn.getByRole('button').click();
  await expect(page.getByTestId('error')).toHaveText(/用户名或密码错误|wrong username or password/i);
});

test('the console opens the project sites: its buttons open working sites in new windows', async ({
  page,
  context,
}) => {
  await page.goto('/portal/#/login');
  await fillLogin(page, TENANT, TENANT_PASSWORD);
  await expectRoute(page, '/app/dashboard');
  await page.goto(`/portal/#/app/model/Project/${PROJECT}/detail`);
  const [front] = await Promise.all([context.waitForEvent('page'), page.getByTestId('project-detail-front').click()]);
  await expect(front.locator('#status')).toHaveText(`app running at /_p_${PROJECT}/`);
  const [backOffice] = await Promise.all([
    context.waitForEvent('page'),
    page.getByTestId('project-detail-admin').click(),
  ]);
  await expect(backOffice.getByTestId('sign-in')).toBeVisible();
  expect(new URL(backOffice.url()).pathname).toBe(`/admin/_p_${PROJECT}/`);
});

test("single sign-on: the console opens the back office signed in (its tables' records managed there); the code works once", async ({
  page,
  context,
}) => {
  const admin = await ensureAdmin(page.request);
  await adminProject(page.request, admin, SSO_PROJECT, 'SSO plant', { hasSSO: true });
  const exchanges: string[] = [];
  /** Every address and header the back office's window sent (the console token must be in none). */
  const seen: string[] = [];
  context.on('request', (request) => {
    if (!request.url().includes(`/admin/_p_${SSO_PROJECT}`)) return;
    seen.push(request.url(), JSON.stringify(request.headers()));
    if (request.url().endsWith(`/admin/_p_${SSO_PROJECT}/api/sso`)) exchanges.push(request.postData() ?? '');
  });
  await page.goto('/portal/#/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expectRoute(page, '/app/dashboard');
  await page.goto(`/portal/#/app/model/Project/${SSO_PROJECT}/detail`);
  const [office] = await Promise.all([context.waitForEvent('page'), page.getByTestId('project-detail-admin').click()]);
  // Signed in without a form: the project administrator's view (users and roles tabs).
  await expect(office.getByTestId('project-name')).toHaveText('SSO plant');
  await expect(office.locator('button[data-tab=users]')).toBeVisible();
  await expect(office.getByTestId('sign-in')).toHaveCount(0);
  // The code left the address bar; the console token was never in it.
  expect(office.url()).not.toContain('sso=');
  expect(exchanges).toHaveLength(1);
  const code = (JSON.parse(exchanges[0] as string) as { code: string }).code;
  const consoleToken = await page.evaluate(() => {
    const stored = localStorage.getItem('gantry.user') ?? sessionStorage.getItem('gantry.user') ?? '{}';
    return (JSON.parse(stored) as { token?: string }).token ?? '';
  });
  expect(consoleToken).not.toBe('');
  expect(seen.join('\n')).not.toContain(consoleToken);

  // The records of a published table, in the back office: added, edited, deleted.
  const designer = { authorization: `Bearer ${admin}`, 'x-request-project': SSO_PROJECT };
  const tables = (await (await page.request.get(`${API}/tables`, { headers: designer })).json()) as Array<{
    id: string;
    name: string;
  }>;
  let table = tables.find((t) => t.name === 'visits')?.id;
  if (!table) {
    const made = await page.request.post(`${API}/tables`, { headers: designer, data: { name: 'visits' } });
    expect(made.status(), await made.text()).toBe(200);
    table = (await made.json()).id as string;
    await page.request.put(`${API}/tables/${table}/draft`, {
      headers: designer,
      data: { fields: [{ name: 'visitor', title: 'Visitor', type: 'text' }] },
    });
    const published = await page.request.post(`${API}/tables/${table}/publish`, { headers: designer, data: {} });
    expect(published.status(), await published.text()).toBe(200);
  }
  office.on('dialog', (dialog) => dialog.accept());
  await office.locator('button[data-tab=tables]').click();
  const form = office.getByTestId('record-form');
  await form.locator('input[name=visitor]').fill('Ada');
  await form.getByRole('button', { name: /添加|Add/ }).click();
  const records = office.getByTestId('records');
  await expect(records.locator('tbody tr', { hasText: 'Ada' })).toHaveCount(1);
  await records
    .locator('tbody tr', { hasText: 'Ada' })
    .getByRole('button', { name: /编辑|Edit/ })
    .click();
  await form.locator('input[name=visitor]').fill('Ada Lovelace');
  await form.getByRole('button', { name: /保存|Save/ }).click();
  await expect(records.locator('tbody tr', { hasText: 'Ada Lovelace' })).toHaveCount(1);
  await records
    .locator('tbody tr', { hasText: 'Ada Lovelace' })
    .getByRole('button', { name: /删除|Delete/ })
    .click();
  await expect(records.locator('tbody tr', { hasText: 'Ada' })).toHaveCount(0);

  // Used once: the same code again gives the sign-in form with the reason.
  const again = await context.newPage();
  await again.goto(`/admin/_p_${SSO_PROJECT}/#sso=${encodeURIComponent(code)}`);
  await expect(again.getByTestId('sign-in')).toBeVisible();
  await expect(again.getByTestId('error')).not.toBeEmpty();
  const replay = await page.request.post(`/admin/_p_${SSO_PROJECT}/api/sso`, { data: { code } });
  expect((await replay.json()).code).toBe('siteSsoCodeInvalid');
  // Short-lived: a code is issued for at most a minute (its expiry is tested on the API with a clock).
  const issued = await page.request.post(`${API}/project/${SSO_PROJECT}/sso`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  const { expiresAt } = (await issued.json()) as { expiresAt: string };
  expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
  // A console token is no back-office token.
  const asConsole = await page.request.get(`/admin/_p_${SSO_PROJECT}/api/me`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(asConsole.status()).toBe(401);
});

test('a domain over HTTPS: its certificate by SNI, replaced live', async ({ request }) => {
  const admin = await ensureAdmin(request);
  const domain = `https://${SECURE_DOMAIN}:${HTTPS_PORT}`;
  await adminProject(request, admin, SECURE_PROJECT, 'Secure plant', {});
  const upload = async (pair: { key: Buffer; pem: Buffer }) => {
    const uploaded = await request.post(`${API}/project/cert`, {
      headers: { authorization: `Bearer ${admin}` },
      multipart: {
        id: SECURE_PROJECT,
        certKey: { name: 'site.key', mimeType: 'application/x-pem-file', buffer: pair.key },
        certPem: { name: 'site.pem', mimeType: 'application/x-pem-file', buffer: pair.pem },
      },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(200);
  };
  const first = selfSigned(SECURE_DOMAIN, 3);
  const second = selfSigned(SECURE_DOMAIN, 9);
  // A key of another pair is refused with a message.
  const mismatched = await request.post(`${API}/project/cert`, {
    headers: { authorization: `Bearer ${admin}`, 'accept-language': 'en' },
    multipart: {
      id: SECURE_PROJECT,
      certKey: { name: 'site.key', mimeType: 'application/x-pem-file', buffer: second.key },
      certPem: { name: 'site.pem', mimeType: 'application/x-pem-file', buffer: first.pem },
    },
  });
  expect(mismatched.status()).toBe(400);
  expect((await mismatched.json()).code).toBe('siteCertificateMismatch');
  await upload(first);
  await adminProject(request, admin, SECURE_PROJECT, 'Secure plant', {
    domain,
    isUseDomain: true,
    isUseHttps: true,
  });

  // A browser of its own: the domain resolves to loopback, the self-signed certificate is accepted
  // (its subject and validity are checked below instead).
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP ${SECURE_DOMAIN} 127.0.0.1`],
  });
  try {
    const visit = async (url: string) => {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      const details = await response?.securityDetails();
      return { context, page, details };
    };
    const front = await visit(`${domain}/`);
    await expect(front.page.locator('body')).toContainText('Secure plant');
    expect(front.details?.subjectName).toBe(SECURE_DOMAIN);
    const firstUntil = front.details?.validTo ?? 0;
    await front.context.close();
    const office = await visit(`${domain}/admin`);
    await expect(office.page.getByTestId('sign-in')).toBeVisible();
    await office.context.close();

    // A new certificate is served at once (the next connection), without a restart.
    await upload(second);
    const renewed = await visit(`${domain}/`);
    expect(renewed.details?.subjectName).toBe(SECURE_DOMAIN);
    expect(renewed.details?.validTo ?? 0).toBeGreaterThan(firstUntil + 5 * 86_400);
    await renewed.context.close();
  } finally {
    await browser.close();
  }
});
