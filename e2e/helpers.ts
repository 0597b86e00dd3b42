import { sha256Hex } from '@gantry/shared';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const API = '/portal/rest/spm';
export const ARTIFACTS = 'artifacts/screenshots';

/** The hash route the page is on, e.g. '/app/dashboard'. */
export async function hashPath(page: Page): Promise<string> {
  return page.evaluate(() => window.location.hash.replace(/^#/, '').split('?')[0] ?? '');
}

export async function expectRoute(page: Page, route: string): Promise<void> {
  await expect.poll(() => hashPath(page)).toBe(route);
}

/** Signs in through the API (for set-up steps the test is not about) and returns the token. */
export async function apiLogin(request: APIRequestContext, username: string, password: string): Promise<string> {
  const response = await request.post(`${API}/login`, { data: { username, password: sha256Hex(password) } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).token as string;
}

export async function apiPatchSettings(request: APIRequestContext, token: string, patch: object): Promise<void> {
  const response = await request.patch(`${API}/setting`, {
    data: patch,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}
