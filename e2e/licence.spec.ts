import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FEATURE_KEYS } from '@gantry/shared';
import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD } from './accounts';
import { ARTIFACTS, expect, expectRoute, fillLogin, test } from './helpers';
import { ensureAdmin, issueDevLicence } from './seed';

/**
 * Issue 4 in the browser (that a server without a licence refuses a project is checked by the
 * first-run spec, the one that starts on an empty server): the administrator reads the machine code in the upload wizard, the vendor tool issues a licence for it
 * with the development key → upload through the wizard (machine code → file → verification →
 * result) → the value-added services page shows the licensed features available → a renewal without
 * 'video' → that card shows 不可用. Sets up its own start (e2e/seed.ts): the administrator exists.
 */
test.describe.configure({ mode: 'serial' });

const work = mkdtempSync(path.join(tmpdir(), 'gantry-e2e-licence-'));
test.afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The vendor's tool, as a vendor would run it (seed.ts): the file written, for the wizard to upload. */
function issueLicence(machineCode: string, name: string, features: readonly string[]): string {
  const file = path.join(work, `${name}.lic`);
  writeFileSync(file, issueDevLicence(machineCode, name, features));
  return file;
}

async function signInChinese(page: Page): Promise<void> {
  // The user's own language choice (user menu) wins over the system setting: the badges read 可用/不可用.
  await page.addInitScript(() => localStorage.setItem('gantry.language', 'zh_Hans'));
  await page.goto('/portal/#/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expectRoute(page, '/app/dashboard');
}

/** Through the wizard: read the machine code, choose the file, verify, apply; returns the result text. */
async function uploadThroughWizard(page: Page, licenceFor: (machineCode: string) => string): Promise<void> {
  await page.goto('/portal/#/app/license/upload');
  const code = page.getByTestId('license-wizard-machine-code');
  await expect(code).toHaveText(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);
  const file = licenceFor((await code.textContent())?.trim() ?? '');
  await page.getByTestId('license-wizard-next').click();
  await page.getByTestId('license-wizard-file-input').setInputFiles(file);
  await expect(page.getByTestId('license-wizard-file-name')).toContainText('.lic');
  await page.getByTestId('license-wizard-verify').click();
  await expect(page.getByTestId('license-wizard-verified')).toBeVisible();
  await page.getByTestId('license-wizard-apply').click();
  await expect(page.getByTestId('license-wizard-result')).toBeVisible();
}

async function featureCard(page: Page, key: string) {
  const card = page.getByTestId(`feature-card-${key}`);
  await expect(card).toBeVisible();
  return card;
}

let token = '';
test.beforeAll(async ({ request }) => {
  token = await ensureAdmin(request);
});

test('the wizard installs a licence; every licensed feature is available', async ({ page, request }) => {
  await signInChinese(page);
  await uploadThroughWizard(page, (machineCode) => issueLicence(machineCode, 'e2e-full', FEATURE_KEYS));
  await expect(page.getByTestId('license-wizard-result')).toContainText('e2e-full');
  await page.screenshot({ path: `${ARTIFACTS}/licence-wizard-result.png`, fullPage: true });

  await page.goto('/portal/#/app/license');
  await expect(page.getByTestId('license-licence-id')).toContainText('e2e-full');
  await expect(page.getByTestId('license-licensee')).toContainText('E2E Industrial Ltd');

  await page.goto('/portal/#/app/license/services');
  await expect(page.getByTestId('license-services-page')).toBeVisible();
  for (const key of FEATURE_KEYS) {
    const card = await featureCard(page, key);
    await expect(card).toHaveAttribute('data-available', 'true');
    await expect(card.getByTestId(`feature-card-${key}-badge`)).toHaveText('可用');
  }
  await page.screenshot({ path: `${ARTIFACTS}/licence-services-all.png`, fullPage: true });

  const info = await request.get('/portal/rest/license/info', { headers: { authorization: `Bearer ${token}` } });
  expect(await info.json()).toMatchObject({ state: 'valid', licenceId: 'e2e-full', development: true });
});

test('a renewal without video: the wizard says what changed and the video card shows 不可用', async ({ page }) => {
  await signInChinese(page);
  const withoutVideo = FEATURE_KEYS.filter((key) => key !== 'video');
  await uploadThroughWizard(page, (machineCode) => issueLicence(machineCode, 'e2e-no-video', withoutVideo));
  await expect(page.getByTestId('license-wizard-result')).toContainText('video');

  await page.goto('/portal/#/app/license/services');
  const video = await featureCard(page, 'video');
  await expect(video).toHaveAttribute('data-available', 'false');
  await expect(video.getByTestId('feature-card-video-badge')).toHaveText('不可用');
  const gis = await featureCard(page, 'gis');
  await expect(gis.getByTestId('feature-card-gis-badge')).toHaveText('可用');
  await page.screenshot({ path: `${ARTIFACTS}/licence-services-no-video.png`, fullPage: true });

  await page.goto('/portal/#/app/model/Licenseinfo/list');
  await expect(page.getByText('e2e-no-video')).toBeVisible();
  await expect(page.getByText('e2e-full')).toBeVisible();
});

test('a tampered file is refused in the verification step and the licence stays as it was', async ({ page }) => {
  await signInChinese(page);
  await page.goto('/portal/#/app/license/upload');
  const code = (await page.getByTestId('license-wizard-machine-code').textContent())?.trim() ?? '';
  const good = issueLicence(code, 'e2e-tampered', FEATURE_KEYS);
  const { readFileSync, writeFileSync } = await import('node:fs');
  const tampered = path.join(work, 'tampered.lic');
  writeFileSync(tampered, readFileSync(good, 'utf8').replace('"userCount": 500', '"userCount": 900'));
  await page.getByTestId('license-wizard-next').click();
  await page.getByTestId('license-wizard-file-input').setInputFiles(tampered);
  await page.getByTestId('license-wizard-verify').click();
  await expect(page.getByTestId('license-wizard-refusal')).toContainText('签名');
  await expect(page.getByTestId('license-wizard-apply')).toHaveCount(0);

  await page.goto('/portal/#/app/license');
  await expect(page.getByTestId('license-licence-id')).toContainText('e2e-no-video');
});
