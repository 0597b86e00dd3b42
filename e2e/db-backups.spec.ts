import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { startVsftpd } from '../apps/server/src/test/vsftpd';
import { ADMIN_PASSWORD } from './accounts';
import { apiLogin, clickDialogButton, expect, expectRoute, fillLogin, test } from './helpers';
import { ensureTenantProject } from './seed';

/**
 * Issue 13 §1 in the browser: a tenant makes a database backup of a project from its menu ('backup
 * complete' when the polled job ends), uploads it again with its verification code (asked first),
 * changes the data, and restores the upload: the persistent 'restoring' notice shows while the job
 * runs, then 'Restore successful', and the data is back.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCRATCH = path.join(ROOT, '.tmp', `e2e-db-backups-${process.env.GANTRY_E2E_PORT ?? 'default'}`);
const TENANT = 'dbbackupco';
const TENANT_PASSWORD = 'Tenant1234';
const ACCOUNT = { id: TENANT, name: 'Dump Co', password: TENANT_PASSWORD };
const PROJECT = 'dbplant';
const DB = '/portal/rest/db-backup';
const CORE = '/portal/rest/core';
const CODE = 'Valve-9-code';
/** FTP storage switched off again (a remote folder must still be a valid one). */
const FTP_OFF = { enabled: false, host: '', port: 21, user: '', remoteFolder: '/', tls: 'none' };

interface DumpRecord {
  id: string;
  name: string;
}

const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'x-request-project': PROJECT });

async function dumps(request: APIRequestContext, token: string): Promise<DumpRecord[]> {
  const response = await request.get(`${DB}/backup`, { headers: headers(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as DumpRecord[];
}

async function records(request: APIRequestContext, token: string): Promise<string[]> {
  const response = await request.get(`${CORE}/data_record`, { headers: headers(token) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as Array<{ id: string }>).map((doc) => doc.id).sort();
}

async function openMenu(page: Page, action: 'create' | 'upload' | 'restore' | 'ftpRestore'): Promise<void> {
  // The project grid's backup entries are the administrator's (e2e/hub.spec.ts clicks them); the
  // tenant opens its project's page by its address, as the entry does.
  await page.goto(`/portal/#/app/db-backup?projectId=${PROJECT}&action=${action}`);
  await expectRoute(page, '/app/db-backup');
}

/** A loopback port nothing listens on (bound, then released): an unreachable FTP server. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Saves the FTP settings as the administrator. */
async function ftpSettingsWriter(request: APIRequestContext) {
  const adminToken = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  return (body: object) =>
    request.put('/portal/rest/db-backup/ftp-settings', {
      headers: { authorization: `Bearer ${adminToken}` },
      data: body,
    });
}

test.describe('database backups', () => {
  let token = '';

  test.beforeAll(async ({ request }) => {
    token = await ensureTenantProject(request, ACCOUNT, { id: PROJECT, name: 'Valves' });
    for (const id of ['r1', 'r2', 'r3']) {
      const saved = await request.post(`${CORE}/data_record`, { headers: headers(token), data: { id, value: 1 } });
      expect([200, 409], await saved.text()).toContain(saved.status());
    }
    rmSync(SCRATCH, { recursive: true, force: true });
    mkdirSync(SCRATCH, { recursive: true });
  });

  test('back up, upload with a code, restore with the restoring notice', async ({ page, request }) => {
    test.setTimeout(120_000);
    const before = await dumps(request, token);
    await page.goto('/portal/#/login');
    await fillLogin(page, TENANT, TENANT_PASSWORD);
    await expectRoute(page, '/app/dashboard');

    // Back up: the dialog titled for backup, the name from the project and the time, every part.
    await openMenu(page, 'create');
    await expect(page.getByTestId('db-title')).toHaveText('Database backup');
    const name = page.getByTestId('db-name');
    await expect(name).toHaveValue(/^Valves_\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await name.fill('e2e_dump');
    const started = page.waitForResponse((response) => response.url().endsWith('/db-backup/dump'));
    await clickDialogButton(page, 'db-create-ok');
    expect((await started).status()).toBe(200);
    await expect(page.getByText('backup complete')).toBeVisible({ timeout: 30_000 });
    const made = (await dumps(request, token)).find((d) => !before.some((old) => old.id === d.id));
    expect(made?.name).toBe('e2e_dump');
    await expect(page.getByTestId(`db-name-backup-${made?.id}`)).toHaveText('e2e_dump');

    // Downloaded with a code through the download dialog: a zip 7-Zip opens only with that code.
    const download = async (code: string, folder: string) => {
      await page.getByTestId(`db-download-backup-${made?.id}`).click();
      if (code) {
        await page.getByTestId('backup-add-code').check();
        await expect(page.getByTestId('db-download-ok')).toBeDisabled();
        await page.getByTestId('backup-code').fill(code);
      }
      const downloading = page.waitForEvent('download');
      await clickDialogButton(page, 'db-download-ok');
      const saved = await downloading;
      expect(saved.suggestedFilename()).toBe('e2e_dump.zip');
      const file = path.join(SCRATCH, folder, 'e2e_dump.zip');
      await saved.saveAs(file);
      return file;
    };
    const coded = await download(CODE, 'coded');
    execFileSync('7z', ['t', `-p${CODE}`, coded], { stdio: 'pipe' });
    expect(() => execFileSync('7z', ['t', '-pwrong', coded], { stdio: 'pipe' })).toThrow();
    const plain = await download('', 'plain');
    execFileSync('7z', ['t', plain], { stdio: 'pipe' });

    // Upload: the code is asked first; then the file, with a progress bar, and the new row.
    const upload = async (file: string, code: string) => {
      await openMenu(page, 'upload');
      if (code) {
        await page.getByTestId('db-upload-code').fill(code);
        await clickDialogButton(page, 'db-code-ok');
      } else await clickDialogButton(page, 'db-code-cancel');
      const uploaded = page.waitForResponse((response) => /\/db-backup\/upload\?/.test(response.url()));
      await page.getByTestId('db-upload-input').setInputFiles(file);
      const answer = await uploaded;
      expect(answer.status(), await answer.text()).toBe(200);
      const { id } = (await answer.json()) as { id: string };
      await expect(page.getByText('Uploaded')).toBeVisible();
      await expect(page.getByTestId(`db-row-backup-${id}`)).toBeVisible();
      return id;
    };
    await upload(coded, CODE);
    const uploadedId = await upload(plain, '');

    // The data changes; restoring the upload brings the whole database back.
    const removed = await request.delete(`${CORE}/data_record/r2`, { headers: headers(token) });
    expect(removed.status(), await removed.text()).toBe(200);
    expect(await records(request, token)).toEqual(['r1', 'r3']);
    await openMenu(page, 'restore');
    await expect(page.getByTestId('db-title')).toHaveText('Database restore');
    await page.getByTestId(`db-restore-backup-${uploadedId}`).click();
    // Nothing is chosen until the user chooses; the confirmation says the data will be replaced.
    await expect(page.getByTestId('db-kind-database')).not.toBeChecked();
    await page.getByTestId('db-kind-all').check();
    await expect(page.getByTestId('db-fixed-rule')).toContainText('Clear, then add');
    await clickDialogButton(page, 'db-restore-ok');
    await expect(page.locator('.ant-modal-confirm-title')).toHaveText(
      "The restore replaces the project's data. Continue?",
    );
    await clickDialogButton(page, 'db-replace-ok');
    await expect(page.getByTestId('db-restoring')).toHaveText(
      'Restoring the database: the project is unavailable until the restore ends',
    );
    await expect(page.getByText('Restore successful')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('db-restoring')).toBeHidden();
    expect(await records(request, token)).toEqual(['r1', 'r2', 'r3']);
  });

  test('FTP storage: a dump goes to the FTP server, is listed on the FTP tab and restored from there', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const ftp = await startVsftpd();
    const settings = await ftpSettingsWriter(request);
    try {
      const { host, port, user, password, remoteFolder } = ftp.connection();
      const saved = await settings({ enabled: true, host, port, user, password, remoteFolder, tls: 'none' });
      expect(saved.status(), await saved.text()).toBe(200);

      // A dump through the API: pushed to FTP when it completes.
      const started = await request.post(`${DB}/dump`, {
        headers: headers(token),
        data: { name: 'ftp_dump', item: { fileServer: true, html: true, database: true } },
      });
      expect(started.status(), await started.text()).toBe(200);
      const { id } = (await started.json()) as { id: string };
      await expect
        .poll(
          async () =>
            ((await (await request.get(`${DB}/${id}`, { headers: headers(token) })).json()) as { status: string })
              .status,
          {
            timeout: 60_000,
          },
        )
        .toBe('success');
      const removed = await request.delete(`${CORE}/data_record/r3`, { headers: headers(token) });
      expect(removed.status(), await removed.text()).toBe(200);

      await page.goto('/portal/#/login');
      await fillLogin(page, TENANT, TENANT_PASSWORD);
      await expectRoute(page, '/app/dashboard');
      await openMenu(page, 'ftpRestore');
      await page.getByTestId('db-tab-ftp').click();
      const ftpRows = page.locator('[data-testid^="db-row-ftp-"]');
      await expect(ftpRows.first()).toBeVisible({ timeout: 20_000 });
      const rowId = ((await ftpRows.first().getAttribute('data-testid')) ?? '').replace('db-row-ftp-', '');
      await expect(page.getByTestId(`db-name-ftp-${rowId}`)).toHaveText('ftp_dump');
      await page.getByTestId(`db-restore-ftp-${rowId}`).click();
      await page.getByTestId('db-kind-all').check();
      await clickDialogButton(page, 'db-restore-ok');
      await clickDialogButton(page, 'db-replace-ok');
      await expect(page.getByText('Restore successful')).toBeVisible({ timeout: 60_000 });
      expect(await records(request, token)).toEqual(['r1', 'r2', 'r3']);
    } finally {
      await settings(FTP_OFF);
      await ftp.stop();
    }
  });
  test('an unreachable FTP server: the backup ends with a translated warning toast and a warning on its row', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const settings = await ftpSettingsWriter(request);
    try {
      const port = await closedPort();
      const saved = await settings({
        enabled: true,
        host: '127.0.0.1',
        port,
        user: 'nobody',
        password: 'not-used',
        remoteFolder: '/',
        tls: 'none',
      });
      expect(saved.status(), await saved.text()).toBe(200);
      const before = await dumps(request, token);

      // The console in Chinese: the warning must not be the FTP library's English.
      await page.addInitScript(() => localStorage.setItem('gantry.language', 'zh_Hans'));
      await page.goto('/portal/#/login');
      await fillLogin(page, TENANT, TENANT_PASSWORD);
      await expectRoute(page, '/app/dashboard');
      await openMenu(page, 'create');
      await expect(page.getByTestId('db-title')).toHaveText('数据库备份');
      await page.getByTestId('db-name').fill('ftp_down');
      await clickDialogButton(page, 'db-create-ok');

      const warning = '备份完成，但复制到 FTP 服务器失败：FTP 服务器拒绝连接或无法到达（本地备份已保留）';
      const toast = page.getByTestId('db-job-warning');
      await expect(toast).toHaveText(warning, { timeout: 30_000 });
      // A warning toast (antd message.warning), not the success one.
      await expect(page.locator('.ant-message-warning').filter({ has: toast })).toBeVisible();
      await expect(page.getByText('备份完成', { exact: true })).toHaveCount(0);

      // The local backup is kept and listed with its warning (tooltip: the same sentence).
      const made = (await dumps(request, token)).find((d) => !before.some((old) => old.id === d.id));
      expect(made?.name).toBe('ftp_down');
      const mark = page.getByTestId(`db-warning-backup-${made?.id}`);
      await expect(mark).toHaveText('警告');
      await mark.hover();
      await expect(page.locator('.ant-tooltip').filter({ hasText: warning })).toBeVisible();

      // FTP not configured: the FTP tab says so (a hint, no error).
      expect((await settings(FTP_OFF)).status()).toBe(200);
      await page.getByTestId('db-tab-ftp').click();
      await expect(page.getByTestId('db-ftp-not-configured')).toHaveText(
        'FTP 存储未配置：管理员可在“系统设置 → FTP 存储”中配置',
      );
      await expect(page.getByTestId('db-list-error-ftp')).toHaveCount(0);
    } finally {
      await settings(FTP_OFF);
    }
  });
});
