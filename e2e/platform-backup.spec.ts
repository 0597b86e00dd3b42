import { sha256Hex } from '@gantry/shared';
import { ADMIN_PASSWORD } from './accounts';
import {
  API,
  apiLogin,
  apiPatchSettings,
  clickDialogButton,
  expect,
  expectRoute,
  fillLogin,
  hashPath,
  test,
} from './helpers';
import { ensureAdmin, ensureLicence, ensureTenant } from './seed';

/**
 * Issue 13 §4 in the browser: the administrator backs the whole platform up from Settings →
 * Platform backup, a tenant is added afterwards, and restoring the backup (confirmed with the
 * password) brings the platform back as it was: the new tenant is gone, everyone signs in again.
 * Runs last: the restore ends every session (the platform is otherwise as it was).
 */
const PLATFORM = '/portal/rest/platform-backup';
const TENANT_PASSWORD = 'Tenant1234';

test('back up the platform, restore it, sign in again', async ({ page, request }) => {
  test.setTimeout(180_000);
  const admin = await ensureAdmin(request);
  await ensureLicence(request, admin);
  await apiPatchSettings(request, admin, { language: 'en' });
  await ensureTenant(request, admin, {
    id: 'keptco',
    name: 'Kept Co',
    password: TENANT_PASSWORD,
    userCount: 1,
    tableCount: 1,
    points: 5,
  });

  await page.goto('/portal/#/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expectRoute(page, '/app/dashboard');
  await page.goto('/portal/#/app/settings/platform-backup');
  await expect(page.getByText('Platform backup and restore')).toBeVisible();
  await page.getByTestId('platform-backup-now').click();
  await expect(page.getByText('Platform backup complete')).toBeVisible({ timeout: 60_000 });
  const listed = await request.get(PLATFORM, { headers: { authorization: `Bearer ${admin}` } });
  const [backup] = (await listed.json()) as Array<{ name: string; size: number }>;
  expect(backup?.name).toMatch(/^platform-.+\.zip$/);
  await expect(page.getByText(backup?.name ?? '')).toBeVisible();
  await page.screenshot({ path: 'artifacts/screenshots/platform-backup.png', fullPage: true });

  // The browser's download link answers the archive.
  const href = await page.getByRole('link', { name: 'Download' }).first().getAttribute('href');
  const download = await request.get(href ?? '');
  expect(download.status()).toBe(200);
  expect((await download.body()).subarray(0, 2).toString()).toBe('PK');

  // After the backup: a tenant the restore takes away.
  await ensureTenant(request, admin, {
    id: 'lateco',
    name: 'Late Co',
    password: TENANT_PASSWORD,
    userCount: 1,
    tableCount: 1,
    points: 5,
  });
  expect(await apiLogin(request, 'lateco', TENANT_PASSWORD)).toBeTruthy();

  await page.getByTestId('platform-restore').first().click();
  await clickDialogButton(page, 'platform-restore-ok');
  await expect(page.getByText('Enter the password', { exact: true })).toBeVisible();
  await page.getByTestId('platform-restore-password').fill(ADMIN_PASSWORD);
  await clickDialogButton(page, 'platform-restore-ok');
  await expect(page.getByTestId('login-error')).toHaveText('The platform was restored. Sign in again.', {
    timeout: 120_000,
  });
  await expectRoute(page, '/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  // Signed in again: back in the console (the dashboard, or the page the restore was started from).
  await expect.poll(() => hashPath(page)).toMatch(/^\/app\//);

  const late = await request.post(`${API}/login`, {
    data: { username: 'lateco', password: sha256Hex(TENANT_PASSWORD) },
  });
  expect(late.status()).toBeGreaterThanOrEqual(400);
  expect(await apiLogin(request, 'keptco', TENANT_PASSWORD)).toBeTruthy();
});
