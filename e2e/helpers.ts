import { sha256Hex } from '@gantry/shared';
import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';

export { expect };

export const API = '/portal/rest/spm';

/**
 * The browser suites' `test`: every page of the test's browser context reports Content-Security-
 * Policy violations (the `securitypolicyviolation` event, and Chromium's own console error), and a
 * test with any fails when it ends. `cspViolations` lists them (a test that provokes one on purpose
 * checks and empties it).
 */
export const test = base.extend<{ cspViolations: string[] }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  cspViolations: async ({}, use) => {
    await use([]);
  },
  context: async ({ context, cspViolations }, use) => {
    await watchCsp(context, cspViolations);
    await use(context);
    expect(cspViolations, 'Content-Security-Policy violations').toEqual([]);
  },
});

/** Records the CSP violations of every page of `context` (present and future) into `into`. */
export async function watchCsp(context: BrowserContext, into: string[]): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  const watch = (page: Page) =>
    page.on('console', (message) => {
      const text = message.text();
      if (/^CSP violation: |Content Security Policy/.test(text)) into.push(`${page.url()}: ${text}`);
    });
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
}
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

/**
 * Clicks `entry` in an antd dropdown menu that `open` shows, as a careful user does; `done` tells
 * whether the click has had its effect (a new route). Under a starved CPU a popup still moving can
 * take the pointer's hover or click and lose it, or a sibling submenu can open over the target: each
 * step has a short timeout, and a failed attempt whose click had no effect closes the menu (Escape,
 * pointer away) and starts again from a clean page.
 */
export async function clickMenuEntry(
  page: Page,
  open: () => Promise<void>,
  entry: Locator,
  done: () => Promise<boolean>,
): Promise<void> {
  const popup = page.locator('.ant-dropdown, .ant-dropdown-menu-submenu-popup').filter({ has: entry }).last();
  const row = page.getByRole('menuitem').filter({ has: entry });
  const step = { timeout: 2_000 };
  let attempt = 0;
  await expect(async () => {
    if (attempt++ > 0) {
      // A click heard late (the page slow to change) is not clicked again.
      if (await done()) return;
      await page.keyboard.press('Escape');
      await page.mouse.move(0, 0);
      await expect(entry).toBeHidden(step);
    }
    await open();
    await expect(entry).toBeVisible(step);
    await expect(popup).not.toHaveClass(/-(appear|enter)\b/, step);
    await entry.hover(step);
    await expect(row).toHaveClass(/-item-active\b/, step);
    await entry.click(step);
    await expect.poll(done, { timeout: 5_000 }).toBe(true);
  }).toPass({ timeout: 30_000 });
}

/**
 * Clicks the button `testId` of an antd dialog (modal or popconfirm) once the dialog has finished
 * its opening motion. A click that lands mid-zoom can press on the button and release beside it:
 * the button is focused and nothing happens. This left the database upload's code dialog open once
 * in CI, on a starved CPU.
 */
export async function clickDialogButton(page: Page, testId: string): Promise<void> {
  const button = page.getByTestId(testId);
  const dialog = page.locator('.ant-modal, .ant-popover').filter({ has: button }).last();
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveClass(/-(appear|enter)\b/);
  await button.click();
}

/** Clicks `item` of the project card's "more" menu, in the submenu that `parent` opens on hover. */
export async function clickCardSubmenu(page: Page, project: string, parent: string, item: string): Promise<void> {
  const more = page.getByTestId(`project-card-${project}-more`);
  const submenu = page.getByTestId(`project-card-${project}-menu-${parent}`);
  const open = async () => {
    if (!(await submenu.isVisible())) await more.click({ timeout: 2_000 });
    await submenu.hover({ timeout: 2_000 });
  };
  const list = await hashPath(page);
  const left = async () => (await hashPath(page)) !== list;
  await clickMenuEntry(page, open, page.getByTestId(`project-card-${project}-menu-${parent}-${item}`), left);
}

/** Logs out through the user menu. */
export async function logOut(page: Page): Promise<void> {
  const open = () => page.getByTestId('user-menu').click({ timeout: 2_000 });
  const out = async () => (await hashPath(page)) === '/login';
  await clickMenuEntry(page, open, page.getByTestId('logout'), out);
}

/**
 * Picks the option `title` in the antd select of `testId`, as a user does, and checks the select
 * shows it. The click waits for the select's own dropdown to finish its opening motion (while it
 * opens it can be realigned under the pointer) and for the option to be the one under the pointer.
 * A click that landed mid-motion left the dropdown open and the choice unmade once in CI, on a
 * starved CPU.
 */
export async function pickOption(page: Page, testId: string, title: string): Promise<void> {
  const select = page.getByTestId(testId);
  await select.click();
  const combobox = select.getByRole('combobox');
  await expect(combobox).toHaveAttribute('aria-controls', /_list$/);
  const list = await combobox.getAttribute('aria-controls');
  const dropdown = page.locator('.ant-select-dropdown').filter({ has: page.locator(`[id="${list}"]`) });
  await expect(dropdown).toBeVisible();
  await expect(dropdown).not.toHaveClass(/-(appear|enter)\b/);
  const option = dropdown.getByTitle(title, { exact: true });
  await option.hover();
  await expect(option).toHaveClass(/\bant-select-item-option-active\b/);
  await option.click();
  await expect(select).toContainText(title);
}
