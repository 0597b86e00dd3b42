import type { Browser, Page } from '@playwright/test';
import { startTestProvider, TEST_CLIENT, type TestProvider } from '../apps/server/src/test/oidc-test-provider';
import { API, expect, expectRoute, test } from './helpers';
import { BASE_URL } from './playwright.config';
import { ensureAdmin, ensureLicence, ensureTenant } from './seed';

/**
 * Single sign-on in the browser (issue 34): the login page's button → the test provider's own login
 * page (oidc-provider on loopback) → back in the console, signed in as the tenant; an unknown account
 * refused, then made a tenant when the setting allows.
 */
let provider: TestProvider;
let admin: string;

test.beforeAll(async () => {
  provider = await startTestProvider([`${BASE_URL}${API}/login/sso/callback`]);
});
test.afterAll(() => provider.close());

async function configure(request: Parameters<typeof ensureAdmin>[0], unknownAccount: 'refuse' | 'create') {
  const response = await request.put(`${API}/sso/settings`, {
    headers: { authorization: `Bearer ${admin}` },
    data: {
      enabled: true,
      issuer: provider.issuer,
      clientId: TEST_CLIENT.id,
      clientSecret: TEST_CLIENT.secret,
      scopes: 'openid profile email',
      accountClaim: 'preferred_username',
      buttonName: 'Plant login',
      unknownAccount,
      tenantType: 0,
      tenantIndustry: 'heating',
      tenantPasswordLogin: true,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A fresh browser (no session at the provider) through the button and the provider's login page. */
async function signInThroughProvider(browser: Browser, login: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/portal/#/login');
  const button = page.getByTestId('login-sso');
  await expect(button).toHaveText('Plant login');
  await button.click();
  // The provider's own page (its development login form), on its own origin.
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  return page;
}

test('SSO: a tenant through the provider; an unknown account refused, then created', async ({ request, browser }) => {
  admin = await ensureAdmin(request);
  await ensureLicence(request, admin);
  await ensureTenant(request, admin, { id: 'ssoplant', name: 'SSO plant', password: 'Tenant123' });
  await configure(request, 'refuse');

  const tenant = await signInThroughProvider(browser, 'ssoplant');
  await expectRoute(tenant, '/app/dashboard');
  const stored = await tenant.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).toContain('ssoplant');
  await tenant.context().close();

  const refused = await signInThroughProvider(browser, 'ssonewbie');
  await expectRoute(refused, '/login');
  await expect(refused.getByTestId('login-error')).toBeVisible();
  await refused.context().close();

  await configure(request, 'create');
  const created = await signInThroughProvider(browser, 'ssonewbie');
  await expectRoute(created, '/app/dashboard');
  await created.context().close();
  const tenantRow = await request.get(`${API}/user/ssonewbie`, { headers: { authorization: `Bearer ${admin}` } });
  expect(tenantRow.status()).toBe(200);
  expect(await tenantRow.json()).toMatchObject({ id: 'ssonewbie', type: 0, industry: 'heating', grant: null });

  // Put the login page back as the other suites expect it.
  const off = await request.put(`${API}/sso/settings`, {
    headers: { authorization: `Bearer ${admin}` },
    data: { enabled: false, issuer: '', clientId: '', buttonName: '' },
  });
  expect(off.status(), await off.text()).toBe(200);
});
