import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '@gantry/shared';
import type { APIRequestContext } from '@playwright/test';
import { apiLogin, expect, expectRoute, fillLogin, test } from './helpers';
import { ensureAdmin, ensureLicence, ensureProject, ensureTenant } from './seed';

/**
 * Issue 15 in the browser: a project's front site serves its html package (its script runs, an app
 * route falls back to index.html), and its back office signs in the project administrator with the
 * console account, who adds a project user; that user signs in and works in the media library.
 */

const TENANT = 'siteco';
const TENANT_PASSWORD = 'Tenant1234';
const PROJECT = 'site1';
const WORKER = 'worker1';
const WORKER_PASSWORD = 'Worker123';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.join(ROOT, '.tmp', `e2e-data-${process.env.GANTRY_E2E_PORT ?? 3217}`);

const office = (url: string) => `/admin/_p_${PROJECT}/api${url}`;

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
