import { sha256Hex } from '@gantry/shared';
import { ADMIN_PASSWORD, FIRST_PASSWORD } from './accounts';
import {
  API,
  ARTIFACTS,
  apiLogin,
  apiPatchSettings,
  expect,
  expectRoute,
  fillLogin,
  logOut,
  pickOption,
  test,
} from './helpers';
import { localToday, markFirstRunPassword } from './seed';

const PASSWORD = FIRST_PASSWORD;
const NEW_PASSWORD = ADMIN_PASSWORD;

/**
 * The whole first-run story in one browser, step by step on one server: regest → login →
 * wrong-password and frozen messages → settings (name, language) → reload in English →
 * change password → forced re-login → logout.
 */
test.describe.configure({ mode: 'serial' });

test('first run, sign-in, settings, password change and logout', async ({ page, request }) => {
  await test.step('first visit finds no admin and goes to /regest', async () => {
    await page.goto('/');
    await expectRoute(page, '/regest');
    await expect(page.getByText('请先设置admin密码，才可以登录！')).toBeVisible();
  });

  await test.step('registration checks the rules, shows the strength, and goes to /login', async () => {
    await page.getByTestId('regest-password').fill('abc');
    await page.getByTestId('regest-submit').click();
    await expect(page.getByText('密码不能少于6位')).toBeVisible();

    await page.getByTestId('regest-password').fill('abc123');
    await expect(page.getByTestId('strength-meter')).toHaveAttribute('data-tier', 'medium');
    await page.getByTestId('regest-password').fill(PASSWORD);
    await expect(page.getByTestId('strength-meter')).toHaveAttribute('data-tier', 'strong');
    await page.getByTestId('regest-password1').fill('Admin12346');
    await page.getByTestId('regest-submit').click();
    await expect(page.getByText('两次输入的密码不一致')).toBeVisible();

    await page.getByTestId('regest-password1').fill(PASSWORD);
    // until this spec changes it, the other specs' set-up signs in with this password (e2e/seed.ts)
    markFirstRunPassword(true);
    await page.getByTestId('regest-submit').click();
    await expect(page.getByText('管理员账号注册成功')).toBeVisible();
    await expectRoute(page, '/login');
    // answered: the warning does not stay beside the success (issue 10)
    await expect(page.getByText('请先设置admin密码，才可以登录！')).toHaveCount(0);
  });

  await test.step('a server without a licence refuses a project', async () => {
    // This spec starts on the empty server, the only one sure to have no licence yet.
    const token = await apiLogin(request, 'admin', PASSWORD);
    const refused = await request.post(`${API}/project`, {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name: 'Too early',
        industry: 'coal',
        projectType: 'blank',
        grant: { validityPeriod: 1, startTime: localToday(), userCount: 1, flow: { tableCount: 1 }, features: [] },
      },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'licenceMissing', license: expect.any(String) });
  });

  await test.step('a second registration is refused', async () => {
    const again = await request.post(`${API}/admin/register`, { data: { password: sha256Hex('Other12345') } });
    expect(again.status()).toBe(409);
    expect((await again.json()).message).toBe('管理员账号已存在');
  });

  const setupToken = await apiLogin(request, 'admin', PASSWORD);
  await apiPatchSettings(request, setupToken, {
    copyright: '© 2026 Gantry e2e',
    errorLogin: { count: 3, duration: { count: 1, unit: 'm' } },
  });

  await test.step('the login page shows the product and the copyright', async () => {
    await page.reload();
    await expect(page.getByTestId('login-submit')).toBeVisible();
    await expect(page.getByText('© 2026 Gantry e2e')).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/login.png`, fullPage: true });
  });

  await test.step('a wrong password gives the spec message and turns the verification code on', async () => {
    await fillLogin(page, 'admin', 'Wrong12345');
    await expect(page.getByTestId('login-error')).toContainText('用户名或密码错误');
    await expect(page.getByTestId('login-code')).toBeVisible();
  });

  await test.step('too many wrong passwords freeze the account', async () => {
    await apiPatchSettings(request, setupToken, { captcha: 'off' });
    await page.reload();
    for (let i = 0; i < 2; i++) {
      await fillLogin(page, 'operator', 'Wrong12345');
      await expect(page.getByTestId('login-error')).toContainText('用户名或密码错误');
    }
    await fillLogin(page, 'operator', 'Wrong12345');
    await expect(page.getByTestId('login-error')).toContainText('账号已冻结');
  });

  await test.step('the right password signs in and lands on the dashboard', async () => {
    await page.reload();
    await fillLogin(page, 'admin', PASSWORD);
    await expectRoute(page, '/app/dashboard');
    await expect(page.getByTestId('header-title')).toBeVisible();
  });

  await test.step('changing the system name and language reloads the console in English', async () => {
    await page.goto('/portal/#/app/settings');
    await expect(page.getByTestId('settings-name')).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/settings.png`, fullPage: true });
    await page.getByTestId('settings-name').fill('Plant Ops');
    await pickOption(page, 'settings-language', 'English');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('settings-save').click()]);
    await expect(page.getByTestId('header-title')).toContainText('Plant Ops');
    await expect(page.getByTestId('settings-save')).toContainText(/save/i);
    await expect(page.getByText('System settings')).toBeVisible();
  });

  await test.step('changing the password forces a new sign-in and kills the old session', async () => {
    const before = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    await page.goto('/portal/#/app/change_current_password');
    await page.getByTestId('change-old').fill(PASSWORD);
    await page.getByTestId('change-new').fill(NEW_PASSWORD);
    await page.getByTestId('change-new2').fill(NEW_PASSWORD);
    await page.getByTestId('change-submit').click();
    await expect(page.getByText('Password changed, please log in again')).toBeVisible();
    markFirstRunPassword(false);
    await expectRoute(page, '/login');
    const oldToken = /"token":"([^"\\]+)/.exec(before.replaceAll('\\"', '"'))?.[1];
    expect(oldToken).toBeTruthy();
    const stale = await request.get(`${API}/login/current/user`, { headers: { authorization: `Bearer ${oldToken}` } });
    expect(stale.status()).toBe(401);
    const setupStale = await request.get(`${API}/login/current/user`, { headers: { authorization: setupToken } });
    expect(setupStale.status()).toBe(401);
  });

  await test.step('the new password works, and logout ends the session', async () => {
    await fillLogin(page, 'admin', NEW_PASSWORD);
    await expectRoute(page, '/app/dashboard');
    await logOut(page);
    await expect(page.getByText('Logged out')).toBeVisible();
    await expectRoute(page, '/login');
  });

  await test.step('a protected page without a session returns to login with the redirect', async () => {
    await page.goto('/portal/#/app/settings');
    await expectRoute(page, '/login');
    expect(page.url()).toContain('redirect=');
  });
});
