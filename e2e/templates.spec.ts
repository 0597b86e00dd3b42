import { TASK_SOCKET_PATIENCE_MS } from '@gantry/shared';
import type { Locator, Page } from '@playwright/test';
import { API, apiLogin, apiPatchSettings, expect, expectRoute, fillLogin, pickOption, test } from './helpers';
import { ensureAdmin, ensureLicence, ensureTenant } from './seed';

/**
 * Issue 14 in the browser: a tenant finds a solution template in the gallery (search by name and
 * industry), previews it full-screen, uses it; the project form has the template chosen, the install
 * shows its progress (from the progress websocket, polling the task only after a long silence), and
 * the new project opens with the template's content (its media library holds the template's
 * pictures; its data layer the template's devices and records). Then the tenant publishes that
 * project as its own template with an uploaded cover, and the gallery card shows that cover.
 */

/** A 2×2 PNG (the cover uploaded in the publish dialog). */
const COVER_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d494844520000000200000002080600000072b60d240000001149444154789c63f8cfc0f01f8419600c0047ca07f967596eb70000000049454e44ae426082',
  'hex',
);

const TENANT = 'tplco';
const TENANT_PASSWORD = 'Tenant1234';
const PROJECT = 'wells1';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function input(page: Page, testId: string): Locator {
  return page.getByTestId(testId).locator('xpath=self::input|self::textarea|.//input').first();
}

test.beforeAll(async ({ request }) => {
  const admin = await ensureAdmin(request);
  // The texts below are the Chinese ones: earlier suites on this server may have switched to English.
  await apiPatchSettings(request, admin, { language: 'zh_Hans' });
  await ensureLicence(request, admin);
  await ensureTenant(request, admin, {
    id: TENANT,
    name: 'Template Co',
    password: TENANT_PASSWORD,
    userCount: 5,
    tableCount: 10,
  });
  // A project left by an earlier run on this server goes, so the install is seen again.
  const token = await apiLogin(request, TENANT, TENANT_PASSWORD);
  await request.delete(`${API}/project/${PROJECT}`, { headers: bearer(token) });
  // And the tenant's templates an earlier run published.
  const own = await request.get(`${API}/templates`, { headers: bearer(token) });
  for (const template of (await own.json()) as Array<{ id: string; mine: boolean; source: string }>) {
    if (template.mine && template.source === 'tenant') {
      await request.delete(`${API}/templates/${template.id}`, { headers: bearer(token) });
    }
  }
});

test('search, preview, use: the new project opens with the template data', async ({ page, request }) => {
  // What the progress websocket brings (and when), and when a task was polled by id.
  const frames: Array<{ at: number; text: string }> = [];
  const opened: number[] = [];
  const taskPolls: number[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().includes('/proxy/ws/')) return;
    opened.push(Date.now());
    socket.on('framereceived', (frame) => frames.push({ at: Date.now(), text: String(frame.payload) }));
  });
  page.on('request', (sent) => {
    if (/\/proxy\/core\/taskmanager\/t/.test(sent.url())) taskPolls.push(Date.now());
  });
  await page.goto('/portal/#/login');
  await fillLogin(page, TENANT, TENANT_PASSWORD);
  await expectRoute(page, '/app/dashboard');
  await page.goto('/portal/#/app/templates');
  await expect(page.getByTestId('template-card-heating-station')).toBeVisible();
  await expect(page.getByTestId('template-card-street-lighting')).toBeVisible();
  await expect(page.getByTestId('template-card-oilfield-wells').locator('img')).toHaveJSProperty('complete', true);

  // By name (server-side search), then by industry.
  await input(page, 'templates-search').fill('油井');
  await input(page, 'templates-search').press('Enter');
  await expect(page.getByTestId('template-card-heating-station')).toHaveCount(0);
  await expect(page.getByTestId('template-card-oilfield-wells')).toBeVisible();
  await input(page, 'templates-search').fill('');
  await input(page, 'templates-search').press('Enter');
  await expect(page.getByTestId('template-card-heating-station')).toBeVisible();
  await pickOption(page, 'templates-industry', '油田');
  await expect(page.getByTestId('template-card-heating-station')).toHaveCount(0);
  const card = page.getByTestId('template-card-oilfield-wells');
  await expect(card).toBeVisible();

  // Preview on hover: a full-screen modal with the schemepreview fields.
  await card.hover();
  await page.getByTestId('template-preview-oilfield-wells').click();
  const preview = page.getByTestId('template-preview');
  await expect(preview.getByTestId('template-preview-name')).toHaveText('油井生产监控');
  await expect(preview.getByTestId('template-preview-contact')).toHaveText('solutions@gantry.example');
  await expect(preview).toContainText('项目模板');
  await expect(preview.getByTestId('template-preview-appinfo')).toContainText('30');
  await page.screenshot({ path: 'artifacts/screenshots/template-preview.png' });
  await preview.getByTestId('template-preview-use').click();

  // Use: the project form with the template chosen.
  await expectRoute(page, '/app/model/Project/add');
  await expect(page.getByTestId('project-template-chosen')).toContainText('油井生产监控');
  await input(page, 'project-id').fill(PROJECT);
  await input(page, 'project-name').fill('Wells of block A');
  await page.getByTestId('project-industry').click();
  await page.keyboard.press('Enter');
  await input(page, 'grant-validityPeriod').fill('30');
  await input(page, 'grant-userCount').fill('1');
  // Room for the template's tables: an install past the grant is refused whole (the table gate).
  await input(page, 'grant-flow-tableCount').fill('10');
  await input(page, 'grant-dataGathering-point').fill('10');
  const created = page.waitForResponse((response) => response.url().includes('/project/_template'));
  await page.getByTestId('project-save').click();
  const { task } = (await (await created).json()) as { task: { id: string } };
  // The install runs as a task (its progress shown meanwhile); its end is said, then the list.
  await expect(page.getByText('模板安装完成')).toBeVisible();
  await expectRoute(page, '/app/model/Project/list');
  // Its progress came over the websocket: running, then ended.
  const heard = frames.flatMap(({ at, text }) => {
    try {
      const message = JSON.parse(text) as { data?: Record<string, Record<string, { id: string; status: string }>> };
      return Object.values(message.data ?? {})
        .flatMap((byRequest) => Object.values(byRequest))
        .filter((item) => item.id === task.id)
        .map((item) => ({ at, status: item.status }));
    } catch {
      return [];
    }
  });
  expect(heard.map((item) => item.status)).toContain('ongoing');
  expect(heard.at(-1)?.status).toBe('success');
  // Polling is only the fallback: a poll comes only after the socket (open) said nothing of the task
  // for TASK_SOCKET_PATIENCE_MS. On a starved machine that silence happens (the embedded engine's
  // look waits for the install's transaction), so this asserts the rule, not that it never applied;
  // the times are taken in the test process, hence the 2 s of slack.
  for (const polled of taskPolls) {
    const before = [...opened, ...heard.map((item) => item.at)].filter((at) => at <= polled);
    expect(polled - Math.max(...before)).toBeGreaterThanOrEqual(TASK_SOCKET_PATIENCE_MS - 2_000);
  }
  await expect(page.getByTestId(`project-card-${PROJECT}`)).toBeVisible();

  // The project opens with the template's content: its media library has the template's pictures.
  await page.goto(`/portal/#/app/model/Project/${PROJECT}/media`);
  await expect(page.getByTestId('media-tree')).toContainText('template');
  const token = await apiLogin(request, TENANT, TENANT_PASSWORD);
  const devices = await request.get(`/portal/rest/core/driver_instance?query=${encodeURIComponent('{"limit":100}')}`, {
    headers: { ...bearer(token), 'x-request-project': PROJECT },
  });
  expect(devices.status()).toBe(200);
  expect(await devices.json()).toHaveLength(30);
  const view = await request.get(`${API}/templates/oilfield-wells`);
  expect((await view.json()).num_installed).toBeGreaterThanOrEqual(1);

  // The project published as the tenant's own template, with an uploaded cover.
  await page.goto('/portal/#/app/templates');
  await page.getByTestId('template-publish').click();
  await pickOption(page, 'template-publish-project', `Wells of block A (${PROJECT})`);
  await input(page, 'template-publish-name').fill('Block A wells');
  await pickOption(page, 'template-publish-industry', '油田');
  await page.getByLabel('开发者', { exact: true }).fill('Template Co');
  await page.getByTestId('template-publish-cover').locator('input[type=file]').setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: COVER_PNG,
  });
  await expect(page.getByTestId('template-publish-cover-image')).toHaveAttribute(
    'src',
    /\/templates\/images\/[0-9a-f]{64}\.png$/,
  );
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
  await expect(page.getByText('模板发布完成')).toBeVisible();
  const published = page.locator('[data-testid^="template-card-tpl"]').filter({ hasText: 'Block A wells' });
  await expect(published.locator('img')).toHaveAttribute('src', /\/templates\/images\/[0-9a-f]{64}\.png$/);
  await expect(published.locator('img')).toHaveJSProperty('naturalWidth', 2);
});
