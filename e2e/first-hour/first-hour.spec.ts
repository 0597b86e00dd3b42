import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, expectRoute, fillLogin, test } from '../helpers';

/**
 * README.md, followed as a new user would on a plain `npm start`: first visit → set the
 * administrator's password → sign in → the README's development licence (its own command, run as
 * written) uploaded in the console → a tenant and a project created. No step through the API.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PASSWORD = 'FirstHour2026';
const work = mkdtempSync(path.join(tmpdir(), 'gantry-first-hour-'));
test.afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The README's licence command, exactly as printed there, writing into `work` instead of the checkout. */
function readmeLicence(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const command = readme.match(/^\s*(npm run -s licence -- issue --key dev .*--out dev\.lic)\s*$/m)?.[1];
  expect(command, 'the README prints the licence command').toBeTruthy();
  const file = path.join(work, 'dev.lic');
  execFileSync('bash', ['-c', (command ?? '').replace(/--out dev\.lic$/, `--out '${file}'`)], {
    cwd: ROOT,
    stdio: 'pipe',
  });
  return file;
}

/** An antd Input / InputNumber by test id, whether the id sits on the input or on its wrapper. */
const input = (page: Page, testId: string) =>
  page.getByTestId(testId).locator('xpath=self::input|self::textarea|.//input').first();

test('the README on a plain npm start: admin, licence, tenant, project', async ({ page }) => {
  await test.step('first visit asks for the administrator password', async () => {
    await page.goto('/');
    await expectRoute(page, '/regest');
    await page.getByTestId('regest-password').fill(PASSWORD);
    await page.getByTestId('regest-password1').fill(PASSWORD);
    await page.getByTestId('regest-submit').click();
    await expectRoute(page, '/login');
  });

  await test.step('signs in as admin; the console says this is an evaluation install', async () => {
    await fillLogin(page, 'admin', PASSWORD);
    await expectRoute(page, '/app/dashboard');
    await expect(page.getByTestId('evaluation-banner')).toContainText('GANTRY_LICENCE_PUBLIC_KEYS');
  });

  await test.step("uploads the README's development licence (Licence management → Upload licence)", async () => {
    const file = readmeLicence();
    await page.goto('/portal/#/app/license');
    await page.getByTestId('license-upload').click();
    await expectRoute(page, '/app/license/upload');
    await page.getByTestId('license-wizard-next').click();
    await page.getByTestId('license-wizard-file-input').setInputFiles(file);
    await page.getByTestId('license-wizard-verify').click();
    await expect(page.getByTestId('license-wizard-verified')).toBeVisible();
    await page.getByTestId('license-wizard-apply').click();
    await expect(page.getByTestId('license-wizard-result')).toBeVisible();
  });

  await test.step('creates a tenant', async () => {
    await page.goto('/portal/#/app/model/User/list');
    await page.getByTestId('tenant-add').click();
    await expectRoute(page, '/app/model/User/add');
    await page.getByTestId('tenant-form-id').fill('firsttenant');
    await page.getByTestId('tenant-form-name').fill('First tenant');
    await page.getByTestId('tenant-form-type-1').click();
    await page.getByTestId('tenant-form-industry').click();
    await page.keyboard.press('Enter');
    await page.getByTestId('tenant-form-password').fill('Tenant2026');
    await page.getByTestId('tenant-form-password1').fill('Tenant2026');
    await input(page, 'grant-validityPeriod').fill('30');
    await input(page, 'grant-userCount').fill('5');
    await input(page, 'grant-flow-tableCount').fill('5');
    await page.getByTestId('tenant-form-submit').click();
    await expectRoute(page, '/app/model/User/list');
    await expect(page.getByTestId('tenant-row-firsttenant')).toBeVisible();
  });

  await test.step('creates a project', async () => {
    await page.goto('/portal/#/app/model/Project/list');
    await page.getByTestId('project-add').click();
    await expectRoute(page, '/app/model/Project/add');
    await page.getByTestId('project-id').locator('xpath=self::input|.//input').first().fill('firstplant');
    await input(page, 'project-name').fill('First plant');
    await page.getByTestId('project-industry').click();
    await page.keyboard.press('Enter');
    await input(page, 'grant-validityPeriod').fill('30');
    await input(page, 'grant-userCount').fill('5');
    await input(page, 'grant-flow-tableCount').fill('5');
    await page.getByTestId('project-save').click();
    await expectRoute(page, '/app/model/Project/list');
    await expect(page.getByTestId('project-card-firstplant')).toBeVisible();
  });
});

test('the console runs under its Content-Security-Policy, and a violation is caught', async ({
  page,
  cspViolations,
}) => {
  await page.goto('/portal/#/login');
  await expect(page.getByTestId('login-submit')).toBeVisible();
  expect(cspViolations).toEqual([]);
  // An inline script, as an injection would add: refused by the policy, and reported.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
  });
  await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
  expect(cspViolations.join('\n')).toMatch(/script-src/);
  expect(await page.evaluate(() => 'injected' in window)).toBe(false);
  // Expected here: emptied, so that the fixture's own check (no violation) passes.
  cspViolations.length = 0;
});
