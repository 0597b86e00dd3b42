import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD } from './accounts';
import { API, ARTIFACTS, apiPatchSettings, expect, expectRoute, fillLogin, logOut, pickOption, test } from './helpers';
import { ensureAdmin } from './seed';

/** Sets up its own start (e2e/seed.ts): the administrator exists, and the console is in English. */
test.describe.configure({ mode: 'serial' });

const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2f3b5d30000000049454e44ae426082',
  'hex',
);

let token = '';
test.beforeAll(async ({ request }) => {
  token = await ensureAdmin(request);
  await apiPatchSettings(request, token, { language: 'en' });
});

async function signIn(page: Page): Promise<void> {
  await page.goto('/portal/#/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expectRoute(page, '/app/dashboard');
}

test('the sidebar collapses to 80 px and stays collapsed after a reload', async ({ page }) => {
  await signIn(page);
  const sider = page.getByTestId('sider');
  await expect(sider).toHaveAttribute('data-collapsed', 'false');
  await page.locator('.ant-layout-sider-trigger').click();
  await expect(sider).toHaveAttribute('data-collapsed', 'true');
  await expect.poll(async () => (await sider.boundingBox())?.width).toBe(80);
  await page.reload();
  await expect(page.getByTestId('sider')).toHaveAttribute('data-collapsed', 'true');
  await expect.poll(async () => (await page.getByTestId('sider').boundingBox())?.width).toBe(80);
  await page.locator('.ant-layout-sider-trigger').click();
  await expect(page.getByTestId('sider')).toHaveAttribute('data-collapsed', 'false');
});

test('under 768 px the console uses the bottom-tab layout', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await expect(page.getByTestId('mobile-layout')).toBeVisible();
  await expect(page.getByTestId('admin-layout')).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/mobile-dashboard.png` });
});

test('a logo uploaded in settings is served and shown on the login page', async ({ page, request }) => {
  await signIn(page);
  await page.goto('/portal/#/app/settings');
  const input = page.getByTestId('settings-logo').locator('input[type=file]');
  await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(page.getByTestId('settings-logo').locator('img')).toHaveAttribute(
    'src',
    /\/resource\/img\/[0-9a-f]{64}\.png$/,
  );
  await page.getByTestId('settings-save').click();
  await expect(page.getByText('Successfully saved')).toBeVisible();

  const saved = await (await request.get(`${API}/setting`)).json();
  expect(saved.logo).toMatch(/\/resource\/img\/[0-9a-f]{64}\.png$/);
  const image = await request.get(saved.logo);
  expect(image.headers()['content-type']).toBe('image/png');

  await logOut(page);
  await expectRoute(page, '/login');
  await expect(page.getByTestId('auth-shell').locator(`img[src="${saved.logo}"]`)).toBeVisible();
});

test('a file that is not an image is refused by the server with an error toast and its details', async ({ page }) => {
  await signIn(page);
  await page.goto('/portal/#/app/settings');
  const input = page.getByTestId('settings-backgroundImage').locator('input[type=file]');
  await input.setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('this is text, not a picture'),
  });
  const toast = page.getByTestId('error-toast');
  await expect(toast).toContainText('Only image files can be uploaded');
  await toast.getByText('show details').click();
  await expect(toast).toContainText('notImage');
});

test('an expired session returns to login with the message, and back to the page after signing in', async ({
  page,
}) => {
  await signIn(page);
  // The console is left first: a console still open would meet the changed token itself (its task
  // poll gets the 401 and its login page takes the message) before the test comes back.
  await page.goto('about:blank');
  // Coming back later, with the stored session no longer valid on the server (changed once, before
  // the console's own scripts run).
  await page.addInitScript(() => {
    if (sessionStorage.getItem('e2e.expired')) return;
    sessionStorage.setItem('e2e.expired', '1');
    for (const store of [localStorage, sessionStorage]) {
      const raw = store.getItem('gantry.user');
      if (raw) store.setItem('gantry.user', JSON.stringify({ ...JSON.parse(raw), token: 'expired-token' }));
    }
  });
  await page.goto('/portal/#/app/crossRequest');
  await expectRoute(page, '/login');
  expect(decodeURIComponent(page.url())).toContain('redirect=/app/crossRequest');
  await expect(page.getByTestId('login-error')).toContainText('Token expired, please log in again');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expectRoute(page, '/app/crossRequest');
});

test('the cross-origin switch turns CORS on and off at run time', async ({ page, request }) => {
  const foreign = 'http://elsewhere.example:8080';
  const probe = async () =>
    (await request.get(`${API}/setting`, { headers: { origin: foreign } })).headers()['access-control-allow-origin'];
  expect(await probe()).toBeUndefined();

  await signIn(page);
  await page.goto('/portal/#/app/crossRequest');
  const toggle = page.getByTestId('cors-switch');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect.poll(probe).toBe(foreign);

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect.poll(probe).toBeUndefined();
});

test('the retention policy is saved in days', async ({ page, request }) => {
  await signIn(page);
  await page.goto('/portal/#/app/settings/bbs_realtime');
  await page.getByTestId('retention-count').fill('2');
  await pickOption(page, 'retention-unit', 'month(s)');
  await expect(page.getByTestId('retention-days')).toContainText('60');
  await page.getByTestId('retention-save').click();
  await expect(page.getByText('Successfully saved')).toBeVisible();
  const settings = await (await request.get(`${API}/setting`, { headers: { authorization: token } })).json();
  expect(settings.retentionPolicy).toEqual({ count: 2, unit: 'M', time: 60 * 86_400 });
});

test('a toast that no longer applies goes: an error from before signing out is not on the login page', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/portal/#/app/model/Project/no-such-project/detail');
  const toast = page.getByTestId('error-toast');
  await expect(toast).toBeVisible();
  await logOut(page);
  await expectRoute(page, '/login');
  await expect(page.getByText('Logged out')).toBeVisible();
  await expect(toast).toHaveCount(0);
});
