import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex, translate } from '@gantry/shared';
import { type APIRequestContext, type Locator, type Page, request as playwrightRequest } from '@playwright/test';
import { ADMIN_PASSWORD } from './accounts';
import { API, apiLogin, apiPatchSettings, clickDialogButton, expect, expectRoute, fillLogin, test } from './helpers';
import { ensureLicence, ensureProject, ensureTenantProject } from './seed';

/**
 * Issue 11 in the browser: a project's media library (folder, uploads with their progress, tree,
 * search, image preview, rename, delete with confirmation, an upload the server refuses), each
 * effect checked in the page and through the API; then a long task's persistent progress
 * notification: it rises, is found again after a reload, and its stop icon pauses the task.
 */
// Two independent suites: a failure of one leaves the other to run.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TENANT = 'mediaco';
const TENANT_PASSWORD = 'Tenant1234';
const ACCOUNT = { id: TENANT, name: 'Media Co', password: TENANT_PASSWORD };
const PROJECT = 'mediaplant';
const MEDIA = '/portal/rest/spm/proxy/core/mediaLibrary';

const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2f3b5d30000000049454e44ae426082',
  'hex',
);
const NOTES = Buffer.from('Shift notes\nPump 3 inspected, valve 7 replaced.\n');

interface MediaNode {
  path: string;
  name: string;
  type: 'dir' | 'file';
  size?: number;
  child?: MediaNode[];
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every node of the library's tree (GET all/dir?files=true), flattened: path → node. */
async function apiTree(request: APIRequestContext, token: string): Promise<Map<string, MediaNode>> {
  const response = await request.get(`${MEDIA}/all/dir?files=true`, {
    headers: { ...bearer(token), 'x-request-project': PROJECT },
  });
  expect(response.status(), await response.text()).toBe(200);
  const flat = new Map<string, MediaNode>();
  const walk = (nodes: MediaNode[]) => {
    for (const node of nodes) {
      flat.set(node.path, node);
      walk(node.child ?? []);
    }
  };
  walk((await response.json()) as MediaNode[]);
  return flat;
}

const node = (page: Page, mediaPath: string): Locator => page.getByTestId(`media-node-${mediaPath}`);

async function askName(page: Page, name: string): Promise<void> {
  const input = page.getByTestId('media-name-input');
  await input.fill(name);
  await expect(input).toHaveValue(name);
  await clickDialogButton(page, 'media-name-ok');
  await expect(page.getByTestId('media-name-input')).toHaveCount(0);
}

test.describe('media library', () => {
  let tenantToken = '';

  test.beforeAll(async ({ request }) => {
    tenantToken = await ensureTenantProject(request, ACCOUNT, { id: PROJECT, name: 'Media plant' });
    // A library left by an earlier attempt on this server starts empty again.
    for (const top of ['photos']) {
      const removed = await request.delete(`${MEDIA}?path=${top}`, {
        headers: { ...bearer(tenantToken), 'x-request-project': PROJECT },
      });
      expect([200, 404], await removed.text()).toContain(removed.status());
    }
  });

  test('a tenant manages its project media library, every step seen in the page and through the API', async ({
    page,
    request,
  }) => {
    await page.goto('/portal/#/login');
    await fillLogin(page, TENANT, TENANT_PASSWORD);
    await expectRoute(page, '/app/dashboard');
    await page.goto(`/portal/#/app/model/Project/${PROJECT}/detail`);
    await page.getByTestId('project-detail-media').click();
    await expectRoute(page, `/app/model/Project/${PROJECT}/media`);
    await expect(page.getByTestId('media-page')).toBeVisible();
    await expect(page.getByTestId('media-tree')).toContainText('The media library has no files yet');
    // Titled with the project's name, not its id.
    await expect(page.getByTestId('media-title')).toHaveText('Media library · Media plant');

    // A folder, made in the root; it is then the chosen folder, where uploads go.
    await page.getByTestId('media-new-folder').click();
    await askName(page, 'photos');
    await expect(node(page, 'photos')).toBeVisible();
    await expect(page.getByTestId('media-target')).toHaveText('Uploads go to: photos');
    expect((await apiTree(request, tenantToken)).get('photos')).toMatchObject({ type: 'dir', name: 'photos' });

    // Two files in one upload. The request is held until the progress shows, so the test sees it
    // whatever the machine's speed; let go, the upload completes and the progress goes.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/mediaLibrary\/upload/, async (route) => {
      await held;
      await route.continue();
    });
    const uploaded = page.waitForResponse((response) => /\/mediaLibrary\/upload/.test(response.url()));
    await page.getByTestId('media-upload-input').setInputFiles([
      { name: 'pixel.png', mimeType: 'image/png', buffer: TINY_PNG },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: NOTES },
    ]);
    await expect(page.getByTestId('media-progress')).toBeVisible();
    await expect(page.getByTestId('media-progress')).toContainText('Uploading');
    await expect(page.getByTestId('media-upload')).toBeDisabled();
    release();
    expect((await uploaded).status()).toBe(200);
    // The route stays (it lets every later upload through): removing it while the page refetches the
    // tree switches request interception off under that request, which then never completes.
    await expect(page.getByTestId('media-progress')).toHaveCount(0);
    await expect(page.getByText('Uploaded')).toBeVisible();
    // The folder the files went into opens by itself.
    await expect(node(page, 'photos/pixel.png')).toBeVisible();
    await expect(node(page, 'photos/notes.txt')).toBeVisible();
    let tree = await apiTree(request, tenantToken);
    expect(tree.get('photos/pixel.png')).toMatchObject({ type: 'file', size: TINY_PNG.length });
    expect(tree.get('photos/notes.txt')).toMatchObject({ type: 'file', size: NOTES.length });
    // No temporary file of the upload is left in the library.
    expect([...tree.keys()].sort()).toEqual(['photos', 'photos/notes.txt', 'photos/pixel.png']);

    // The search keeps the matches and the folders that lead to them.
    await page.getByTestId('media-search').locator('input').fill('NOTES');
    await expect(node(page, 'photos/notes.txt')).toBeVisible();
    await expect(node(page, 'photos')).toBeVisible();
    await expect(node(page, 'photos/pixel.png')).toHaveCount(0);
    await page.getByTestId('media-search').locator('input').fill('nothing-like-this');
    await expect(page.getByTestId('media-tree')).toContainText('No file or folder matches');
    await page.getByTestId('media-search').locator('input').fill('');
    await expect(node(page, 'photos/pixel.png')).toBeVisible();

    // The image shows as a preview (served inline, and really decoded by the browser).
    const preview = page.waitForResponse((response) => /\/mediaLibrary\/download\?.*inline=true/.test(response.url()));
    await node(page, 'photos/pixel.png').click();
    await expect(page.getByTestId('media-selected-path')).toHaveText('photos/pixel.png');
    const image = await preview;
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    const img = page.getByTestId('media-preview');
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1);
    // The file panel stays in sight while the list scrolls (sticky, not carried off the top).
    expect(await page.getByTestId('media-details').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
    // A text file has no preview.
    await node(page, 'photos/notes.txt').click();
    await expect(page.getByTestId('media-selected-path')).toHaveText('photos/notes.txt');
    await expect(page.getByTestId('media-preview')).toHaveCount(0);

    // Rename (the library has no move in the console: the API's move is covered by the server tests).
    await page.getByTestId('media-rename').click();
    await expect(page.getByTestId('media-name-input')).toHaveValue('notes.txt');
    await askName(page, 'shift-notes.txt');
    await expect(node(page, 'photos/shift-notes.txt')).toBeVisible();
    await expect(node(page, 'photos/notes.txt')).toHaveCount(0);
    await expect(page.getByTestId('media-selected-path')).toHaveText('photos/shift-notes.txt');
    tree = await apiTree(request, tenantToken);
    expect(tree.get('photos/shift-notes.txt')).toMatchObject({ type: 'file', size: NOTES.length });
    expect(tree.has('photos/notes.txt')).toBe(false);

    // An upload the server refuses shows the server's own message, and leaves nothing behind.
    await node(page, 'photos').click();
    await expect(page.getByTestId('media-target')).toHaveText('Uploads go to: photos');
    for (const refused of ['nul.txt', 'pixel.png']) {
      const answer = page.waitForResponse((response) => /\/mediaLibrary\/upload/.test(response.url()));
      await page
        .getByTestId('media-upload-input')
        .setInputFiles({ name: refused, mimeType: 'text/plain', buffer: Buffer.from('refused\n') });
      const response = await answer;
      expect(response.status()).toBeGreaterThanOrEqual(400);
      const { message } = (await response.json()) as { message: string };
      expect(message).toContain(refused === 'nul.txt' ? 'nul.txt' : 'photos/pixel.png');
      const toast = page.getByTestId('error-toast').filter({ hasText: message });
      await expect(toast).toBeVisible();
      await expect(page.getByTestId('media-progress')).toHaveCount(0);
    }
    tree = await apiTree(request, tenantToken);
    expect([...tree.keys()].sort()).toEqual(['photos', 'photos/pixel.png', 'photos/shift-notes.txt']);
    expect(tree.get('photos/pixel.png')?.size).toBe(TINY_PNG.length);

    // Delete a file, then the folder with what is left in it, each after its confirmation.
    await node(page, 'photos/shift-notes.txt').click();
    await page.getByTestId('media-delete').click();
    await expect(page.getByText('Delete "shift-notes.txt"?')).toBeVisible();
    await clickDialogButton(page, 'media-delete-confirm');
    await expect(node(page, 'photos/shift-notes.txt')).toHaveCount(0);
    await expect(page.getByText('Deleted')).toBeVisible();
    expect([...(await apiTree(request, tenantToken)).keys()].sort()).toEqual(['photos', 'photos/pixel.png']);

    await node(page, 'photos').click();
    await page.getByTestId('media-delete').click();
    await expect(page.getByText('Delete "photos"?')).toBeVisible();
    await clickDialogButton(page, 'media-delete-confirm');
    await expect(node(page, 'photos')).toHaveCount(0);
    await expect(page.getByTestId('media-tree')).toContainText('The media library has no files yet');
    expect((await apiTree(request, tenantToken)).size).toBe(0);
  });
});

/**
 * The retention clean-up is the platform's long task. It removes data records stored longer ago than
 * the policy (a day at least), and records take the time they are stored: the shared browser-test
 * server, written through its API only, has none old enough, so its clean-up ends in milliseconds.
 * This suite runs its own server on a free port the system picks, on its own directory, filled
 * while that server is stopped by the documented demo tool (`npm run demo`: time series spread over
 * the last 90 days, written straight to the database), so that the clean-up runs for several
 * seconds in batches of 1,000 with a safe point between batches.
 */
const TASK_DATA = path.join(ROOT, '.tmp', `e2e-task-data-${process.env.GANTRY_E2E_PORT ?? 3217}`);
/**
 * Demo documents: about 59% are data records older than a day, ~118 batches of 1,000 for the
 * clean-up (on a loaded 2-core machine the test pauses it at 16-20% after 12-14 s).
 */
const DEMO_DOCS = 200_000;
const TASK_PROJECT = 'retain1';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      GANTRY_DATA_DIR: TASK_DATA,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // 100 ms between batches: the clean-up lasts 12 s or more however fast the machine (it once
      // ended in 9 s, before the test reached the stop icon).
      GANTRY_RETENTION_PAUSE_MS: '100',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the task suite's server exited with ${child.exitCode}`);
        return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status;
      },
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(200);
  return child;
}

async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The percentage a progress notification shows. */
async function percentOf(notification: Locator): Promise<number> {
  const value = await notification.getByRole('progressbar').getAttribute('aria-valuenow', { timeout: 5_000 });
  return Number(value);
}

test.describe('task progress notification', () => {
  let port = 0;
  let server: ChildProcess | undefined;
  let side = '';
  let token = '';

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    rmSync(TASK_DATA, { recursive: true, force: true });
    port = await freePort();
    side = `http://127.0.0.1:${port}`;
    server = await startServer(port);
    const api = await playwrightRequest.newContext({ baseURL: side });
    try {
      const registered = await api.post(`${API}/admin/register`, { data: { password: sha256Hex(ADMIN_PASSWORD) } });
      expect(registered.status(), await registered.text()).toBe(200);
      token = await apiLogin(api, 'admin', ADMIN_PASSWORD);
      await apiPatchSettings(api, token, {
        captcha: 'off',
        language: 'en',
        errorLogin: { count: 0, duration: { count: 1, unit: 'm' } },
        retentionPolicy: { count: 1, unit: 'd' },
      });
      await ensureLicence(api, token);
      await ensureProject(api, token, { id: TASK_PROJECT, name: 'Retention drill' });
    } finally {
      await api.dispose();
    }
    await stopServer(server);
    const started = Date.now();
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/demo.ts', '--project', TASK_PROJECT, '--docs', String(DEMO_DOCS)],
      { cwd: ROOT, env: { ...process.env, GANTRY_DATA_DIR: TASK_DATA, DATABASE_URL: '' }, stdio: 'pipe' },
    );
    console.log(`demo data: ${DEMO_DOCS} documents in ${Date.now() - started} ms`);
    server = await startServer(port);
  });

  test.afterAll(async () => {
    await stopServer(server);
    rmSync(TASK_DATA, { recursive: true, force: true });
  });

  test('the clean-up started from the retention page shows a rising percentage, is found again after a reload, and its stop icon pauses it', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const headers = bearer(token);
    const taskOf = async (id: string) => {
      const query = encodeURIComponent(JSON.stringify({ filter: { id } }));
      const response = await request.get(`${side}${API}/proxy/core/taskmanager?query=${query}`, { headers });
      expect(response.status(), await response.text()).toBe(200);
      const [task] = (await response.json()) as Array<{
        id: string;
        status: string;
        progress: number;
        message: string;
      }>;
      return task;
    };

    await page.goto(`${side}/portal/#/login`);
    await fillLogin(page, 'admin', ADMIN_PASSWORD);
    await expectRoute(page, '/app/dashboard');
    await page.goto(`${side}/portal/#/app/settings/bbs_realtime`);
    await expect(page.getByTestId('retention-last-run')).toContainText('Not run yet');

    const answer = page.waitForResponse(
      (response) => response.url().endsWith('/setting/bbs_realtime/run') && response.request().method() === 'POST',
    );
    const started = Date.now();
    await page.getByTestId('retention-run').click();
    const run = await answer;
    expect(run.status()).toBe(200);
    const { id } = (await run.json()) as { id: string };

    // The persistent notification: the task's name, its percentage rising.
    const notification = page.getByTestId(`task-progress-${id}`);
    await expect(notification).toBeVisible();
    await expect(page.locator('.ant-notification-notice', { has: notification })).toContainText('Time-series clean-up');
    await expect.poll(() => percentOf(notification), { timeout: 30_000 }).toBeGreaterThan(0);
    const first = await percentOf(notification);
    await expect.poll(() => percentOf(notification), { timeout: 30_000 }).toBeGreaterThan(first);
    // The bar's value and the percentage written beside it, read in one snapshot (the task moves on).
    const shown = await notification.evaluate((element) => ({
      value: Number(element.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')),
      text: element.textContent ?? '',
    }));
    const risen = shown.value;
    expect(risen).toBeLessThan(100);
    expect(shown.text).toMatch(new RegExp(`(^|\\D)${risen}%`));
    expect((await taskOf(id))?.status).toBe('ongoing');

    // A reload while it runs: the notification is found again, where the task has got to.
    await page.reload();
    await expect(page.getByTestId('retention-last-run')).toBeVisible();
    await expect(notification).toBeVisible();
    await expect.poll(() => percentOf(notification)).toBeGreaterThanOrEqual(risen);

    // The stop icon pauses it at its next safe point; the notification closes, the page says so.
    await page.getByTestId(`task-pause-${id}`).click();
    await expect(notification).toHaveCount(0, { timeout: 15_000 });
    await expect.poll(async () => (await taskOf(id))?.status, { timeout: 15_000 }).toBe('pause');
    const paused = await taskOf(id);
    // The engine's outcome, in the language of the call (a message key on the server).
    expect([translate('task.paused', 'zh_Hans'), translate('task.paused', 'en')]).toContain(paused?.message);
    expect(paused?.progress).toBeGreaterThan(0);
    expect(paused?.progress).toBeLessThan(1);
    await expect(page.getByTestId('retention-last-run')).toContainText('Paused');
    console.log(`clean-up paused at ${Math.round((paused?.progress ?? 0) * 100)}% after ${Date.now() - started} ms`);
  });
});
