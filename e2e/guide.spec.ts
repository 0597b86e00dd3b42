import { ADMIN_PASSWORD } from './accounts';
import { expect, expectRoute, fillLogin, test } from './helpers';
import { ensureAdmin } from './seed';

/** Issue 10: Help opens the user guide the server ships, in the language the console shows. */
test.beforeAll(async ({ request }) => {
  await ensureAdmin(request);
});

test("Help opens the shipped user guide in a new window, in the console's language", async ({ page, context }) => {
  // Other suites on the same server set the system language to English: the user's own choice wins.
  await page.addInitScript(() => localStorage.setItem('gantry.language', 'zh_Hans'));
  await page.goto('/portal/#/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expectRoute(page, '/app/dashboard');

  const help = page.getByTestId('menu-help');
  await expect(help).toHaveAttribute('href', '/guide/?lang=zh_Hans');
  const [guide] = await Promise.all([context.waitForEvent('page'), help.click()]);
  await guide.waitForLoadState();
  expect(new URL(guide.url()).pathname).toBe('/guide/zh_Hans');
  await expect(guide.locator('h1')).toHaveText('Gantry 用户指南');
  await expect(guide.getByRole('heading', { name: '注册管理员' })).toBeVisible();

  // the other language, one click away
  await guide.getByRole('link', { name: 'English' }).click();
  await expect(guide.locator('h1')).toHaveText('Gantry user guide');
  await guide.close();
});
