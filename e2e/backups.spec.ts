import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { API, apiLogin, clickDialogButton, expect, expectRoute, fillLogin, pickOption, test } from './helpers';
import { ensureTenantProject } from './seed';

/**
 * Issue 12 in the browser: a tenant backs a project up from its menu (progress, 'backup complete'),
 * downloads it with a verification code (a zip 7-Zip opens only with that code), uploads it again
 * (progress, the new record), changes the data, restores the upload after its dry run and the
 * replace confirmation, and is signed out 5 s after 'restore succeeded'; the data is back.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCRATCH = path.join(ROOT, '.tmp', `e2e-backups-${process.env.GANTRY_E2E_PORT ?? 'default'}`);
const TENANT = 'backupco';
const TENANT_PASSWORD = 'Tenant1234';
const ACCOUNT = { id: TENANT, name: 'Backup Co', password: TENANT_PASSWORD };
const PROJECT = 'backupplant';
const BACKUP = `${API}/proxy/core/backup`;
const CORE = '/portal/rest/core';
const TABLES = `${API}/tables`;
const CODE = 'Pump-7-code';
const RESTORED =
  'restore succeeded, will jump to the login page in 5 seconds, login again for the restored data to take effect';

interface BackupRecord {
  id: string;
  name: string;
  type: string;
}

const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'x-request-project': PROJECT });

async function backups(request: APIRequestContext, token: string): Promise<BackupRecord[]> {
  const query = encodeURIComponent(JSON.stringify({ filter: { type: 'export', status: 'succeed' } }));
  const response = await request.get(`${BACKUP}?query=${query}`, { headers: headers(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as BackupRecord[];
}

/** The project's tables (the designer's), by name. */
async function tableDocs(request: APIRequestContext, token: string): Promise<Array<{ id: string; name: string }>> {
  const response = await request.get(`${CORE}/table`, { headers: headers(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Array<{ id: string; name: string }>;
}

async function tables(request: APIRequestContext, token: string): Promise<string[]> {
  return (await tableDocs(request, token)).map((doc) => doc.name).sort();
}

async function openMenu(page: Page, action: 'create' | 'upload' | 'restore'): Promise<void> {
  // The project grid's backup entries are the administrator's (e2e/hub.spec.ts clicks them); the
  // tenant opens its project's page by its address, as the entry does.
  await page.goto(`/portal/#/app/backup?projectId=${PROJECT}&action=${action}`);
  await expectRoute(page, '/app/backup');
}

test.describe('project backups', () => {
  let token = '';

  test.beforeAll(async ({ request }) => {
    token = await ensureTenantProject(request, ACCOUNT, { id: PROJECT, name: 'Boilers', tableCount: 2 });
    // Tables are made by the table designer (the generic data layer makes none).
    const existing = await tables(request, token);
    for (const name of ['boiler', 'turbine'].filter((one) => !existing.includes(one))) {
      const saved = await request.post(`${TABLES}`, { headers: headers(token), data: { name } });
      expect(saved.status(), await saved.text()).toBe(200);
    }
    rmSync(SCRATCH, { recursive: true, force: true });
    mkdirSync(SCRATCH, { recursive: true });
  });

  test('back up, download with a code, upload, restore after the dry run, signed out after 5 s', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const before = await backups(request, token);
    // The restore task's end as the progress socket delivers it (listened to from the first page).
    let ended = 0;
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString();
        if (!ended && text.includes('"backup.import"') && text.includes('"success"')) ended = Date.now();
      }),
    );
    await page.goto('/portal/#/login');
    await fillLogin(page, TENANT, TENANT_PASSWORD);
    await expectRoute(page, '/app/dashboard');

    // Back up: the menu opens the creation dialog with the project name and the time.
    await openMenu(page, 'create');
    const name = page.getByTestId('backup-name');
    await expect(name).toHaveValue(/^Boilers_\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await name.fill('e2e_full');
    await page.getByTestId('backup-kind-mongodb').check();
    await clickDialogButton(page, 'backup-create-ok');
    await expect(page.getByText('data content required')).toBeVisible();
    await page.getByTestId('backup-module-data-table').check();
    // The selection links: the data group brings user and role.
    await expect(page.getByTestId('backup-module-auth-user')).toBeChecked();
    await expect(page.getByTestId('backup-module-auth-role')).toBeChecked();
    const started = page.waitForResponse((response) => /\/backup\/export\?/.test(response.url()));
    await clickDialogButton(page, 'backup-create-ok');
    const { id: taskId } = (await (await started).json()) as { id: string };
    // The progress notification, or (on a fast machine) its end.
    await expect(
      page.getByTestId(`task-progress-${taskId}`).or(page.getByText('backup complete')).first(),
    ).toBeVisible();
    await expect(page.getByText('backup complete')).toBeVisible({ timeout: 30_000 });
    const made = (await backups(request, token)).find((b) => !before.some((old) => old.id === b.id));
    expect(made?.name).toBe('e2e_full');
    const madeId = made?.id ?? '';
    await expect(page.getByTestId(`backup-name-${madeId}`)).toContainText('e2e_full');

    // Download with a verification code: disabled until the code is there.
    await page.getByTestId(`backup-download-${madeId}`).click();
    await page.getByTestId('backup-add-code').check();
    await expect(page.getByTestId('backup-download-ok')).toBeDisabled();
    await expect(page.getByTestId('backup-code-hint')).toHaveText('if adding a verification code, fill it first');
    await page.getByTestId('backup-code').fill(CODE);
    const downloading = page.waitForEvent('download');
    await clickDialogButton(page, 'backup-download-ok');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('e2e_full.zip');
    const file = path.join(SCRATCH, 'e2e_full.zip');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 2).toString('latin1')).toBe('PK');
    execFileSync('7z', ['t', `-p${CODE}`, file], { stdio: 'pipe' });
    expect(() => execFileSync('7z', ['t', '-pwrong', file], { stdio: 'pipe' })).toThrow();

    // The same backup without a code: a plain zip, which uploads back as it is.
    await page.getByTestId(`backup-download-${madeId}`).click();
    const plainDownloading = page.waitForEvent('download');
    await clickDialogButton(page, 'backup-download-ok');
    const plainDownload = await plainDownloading;
    expect(plainDownload.suggestedFilename()).toBe('e2e_full.zip');
    const plainFile = path.join(SCRATCH, 'plain', 'e2e_full.zip');
    await plainDownload.saveAs(plainFile);
    execFileSync('7z', ['t', plainFile], { stdio: 'pipe' });
    await page.getByTestId('backup-upload').click();
    const plainUploaded = page.waitForResponse((response) => /\/backup\/upload\?/.test(response.url()));
    await page.getByTestId('backup-upload-input').setInputFiles(plainFile);
    const plainAnswer = await plainUploaded;
    expect(plainAnswer.status(), await plainAnswer.text()).toBe(200);
    const { id: plainId } = (await plainAnswer.json()) as { id: string };
    await expect(page.getByTestId(`backup-row-${plainId}`)).toBeVisible();

    // Upload it again, with its code: a progress bar, then the new record.
    await page.getByTestId('backup-upload').click();
    await page.getByTestId('backup-add-code').check();
    await page.getByTestId('backup-code').fill(CODE);
    const uploaded = page.waitForResponse((response) => /\/backup\/upload\?/.test(response.url()));
    await page.getByTestId('backup-upload-input').setInputFiles(file);
    const answer = await uploaded;
    expect(answer.status(), await answer.text()).toBe(200);
    const { id: uploadedId } = (await answer.json()) as { id: string };
    await expect(page.getByText('Uploaded')).toBeVisible();
    await expect(page.getByTestId(`backup-row-${uploadedId}`)).toBeVisible();

    // The data changes; the restore of the upload (clear, then add) brings it back.
    const turbine = (await tableDocs(request, token)).find((doc) => doc.name === 'turbine');
    const removed = await request.delete(`${TABLES}/${turbine?.id}`, { headers: headers(token) });
    expect(removed.status(), await removed.text()).toBe(200);
    expect(await tables(request, token)).toEqual(['boiler']);
    await page.getByTestId(`backup-restore-${uploadedId}`).click();
    // Nothing is chosen until the user chooses: the part, its data modules (by name), the rule.
    await expect(page.getByTestId('backup-kind-mongodb')).not.toBeChecked();
    await page.getByTestId('backup-kind-mongodb').check();
    await expect(page.getByTestId('backup-modules')).toContainText('Tables');
    await page.getByTestId('backup-module-data-table').check();
    await pickOption(page, 'backup-rule', 'Clear, then add');
    await expect(page.getByTestId('backup-plan')).toContainText('Tables');
    await clickDialogButton(page, 'backup-restore-ok');
    await expect(page.locator('.ant-modal-confirm-title')).toHaveText(
      "The restore replaces the project's data. Continue?",
    );
    // From the restore task's end on the progress socket to the login page: 5 s (the page's own
    // clock for the latter, which performance.timeOrigin puts on the same scale as this process's).
    await page.evaluate(() => {
      const times = window as unknown as { loginAt?: number };
      const timer = setInterval(() => {
        if (window.location.hash.startsWith('#/login')) {
          times.loginAt = performance.timeOrigin + performance.now();
          clearInterval(timer);
        }
      }, 10);
    });
    await clickDialogButton(page, 'backup-replace-ok');
    await expect(page.getByTestId('restore-succeeded')).toHaveText(RESTORED, { timeout: 30_000 });
    // The notice counts down and is still there in the last second before the sign-out.
    await expect(page.getByTestId('restore-countdown')).toHaveText('Signing out in 1 s');
    await expectRoute(page, '/login');
    const loginAt = await page.evaluate(() => (window as unknown as { loginAt?: number }).loginAt ?? 0);
    expect(ended).toBeGreaterThan(0);
    expect(loginAt - ended).toBeGreaterThanOrEqual(4_800);
    expect(loginAt - ended).toBeLessThan(8_000);
    const again = await apiLogin(request, TENANT, TENANT_PASSWORD);
    expect(await tables(request, again)).toEqual(['boiler', 'turbine']);
  });
});
