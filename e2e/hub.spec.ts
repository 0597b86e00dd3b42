import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD } from './accounts';
import { API, ARTIFACTS, apiLogin, expect, expectRoute, fillLogin, hashPath, pickOption, test } from './helpers';
import { ensureAdmin, ensureLicence } from './seed';

/**
 * Issue 32: from a project card and from a list row, every action of the "more" menu opens its
 * screen (or its dialog, or the site in a new window), at 1440, 1000 and 390 px, with no page or
 * console error; and the extension editor: a selector with three options, saved, its value shown on
 * the project detail.
 */
const PROJECT = 'hubplant';
const VIEWPORTS = [
  { name: '1440', width: 1440, height: 900 },
  { name: '1000', width: 1000, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;

/** Screens a menu entry opens, by action. */
const SCREENS = {
  detail: `/app/model/Project/${PROJECT}/detail`,
  media: `/app/model/Project/${PROJECT}/media`,
  tables: `/app/model/Project/${PROJECT}/tables`,
  backup: '/app/backup',
  dbBackup: '/app/db-backup',
  edit: `/app/model/Project/${PROJECT}/edit`,
} as const;

test.beforeAll(async ({ request }) => {
  const admin = await ensureAdmin(request);
  await ensureLicence(request, admin);
  const headers = { authorization: `Bearer ${admin}` };
  const existing = await request.get(`${API}/project/${PROJECT}`, { headers });
  if (existing.status() === 200) return;
  const created = await request.post(`${API}/project`, {
    headers,
    data: {
      id: PROJECT,
      name: 'Harbour pumping station',
      industry: 'coal',
      projectType: 'blank',
      bgColor: '#1677FF',
      remarks: 'Pumps and valves of the harbour',
      grant: {
        validityPeriod: 30,
        startTime: new Date().toISOString().slice(0, 10),
        userCount: 1,
        flow: { tableCount: 2 },
        dataGathering: { point: 10 },
        visual: { dashboardCount: 1 },
        features: [],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(200);
});

/** Page errors and console errors of `page`, collected from now on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

async function signIn(page: Page, language: 'zh_Hans' | 'en' = 'zh_Hans'): Promise<void> {
  await page.addInitScript((lang) => localStorage.setItem('gantry.language', lang), language);
  await page.goto('/portal/#/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expectRoute(page, '/app/dashboard');
}

/**
 * The project list in `view`. After a screen, by its hash, as the console's own links go; `fresh`
 * reloads the whole console instead: no menu, dialog or focus left from a dialog or a window opened.
 */
async function openList(page: Page, view: 'card' | 'list', fresh = false): Promise<string> {
  await page.goto('/portal/#/app/model/Project/list');
  if (fresh) await page.reload();
  // a menu the step before left open (its submenu held open by the pointer over it) closes
  await expect(async () => {
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');
    await expect(page.locator('.ant-modal-wrap:visible, .ant-dropdown:visible')).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page
    .getByTestId('project-view-toggle')
    .locator(view === 'card' ? '.anticon-appstore' : '.anticon-unordered-list')
    .click();
  const prefix = view === 'card' ? `project-card-${PROJECT}` : `project-row-${PROJECT}`;
  await expect(page.getByTestId(prefix)).toBeVisible();
  return prefix;
}

/** Opens the "more" menu of `prefix` and clicks its entry `action` (retried: a menu still moving can lose the click). */
async function clickAction(page: Page, prefix: string, action: string, done: () => Promise<boolean>): Promise<void> {
  const entry = page.getByTestId(`${prefix}-menu-${action}`);
  await expect(async () => {
    if (await done()) return;
    if (!(await entry.isVisible())) await page.getByTestId(`${prefix}-more`).click({ timeout: 2_000 });
    await entry.click({ timeout: 2_000 });
    await expect.poll(done, { timeout: 3_000 }).toBe(true);
  }).toPass({ timeout: 30_000 });
}

for (const viewport of VIEWPORTS) {
  test.describe(`project hub at ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    // eleven actions, each from the list: longer than the suite's 90 s on a loaded machine
    test.setTimeout(300_000);

    for (const view of ['card', 'list'] as const) {
      test(`every action of a ${view} opens its screen`, async ({ page, context }) => {
        const errors = watchErrors(page);
        await signIn(page);
        let prefix = await openList(page, view);
        await page.screenshot({ path: `${ARTIFACTS}/hub-${view}-${viewport.name}.png`, fullPage: true });
        if (view === 'card') {
          // the title opens the detail
          await page.getByTestId(`${prefix}-name`).click();
          await expectRoute(page, SCREENS.detail);
          prefix = await openList(page, view);
        }
        await page.getByTestId(`${prefix}-more`).click();
        await expect(page.getByTestId(`${prefix}-menu-delete`)).toBeVisible();
        await page.screenshot({ path: `${ARTIFACTS}/hub-${view}-menu-${viewport.name}.png` });
        await page.keyboard.press('Escape');

        for (const [action, route] of Object.entries(SCREENS)) {
          prefix = await openList(page, view);
          await clickAction(page, prefix, action, async () => (await hashPath(page)) === route);
          await expect(page.locator('.ant-result-404, [data-testid="route-error"]')).toHaveCount(0);
          if (action === 'detail') {
            await page.screenshot({ path: `${ARTIFACTS}/hub-detail-${viewport.name}.png`, fullPage: true });
          }
        }
        for (const site of ['front', 'admin'] as const) {
          prefix = await openList(page, view, true);
          const opened = context.waitForEvent('page');
          await clickAction(page, prefix, site, async () => context.pages().length > 1);
          const popup = await opened;
          await popup.waitForLoadState();
          expect(popup.url()).toContain(site === 'admin' ? `/admin/_p_${PROJECT}/` : `/_p_${PROJECT}/`);
          await popup.close();
        }
        prefix = await openList(page, view, true);
        await clickAction(page, prefix, 'licence', () => page.getByTestId('licence-detail-userCount').isVisible());
        await page.keyboard.press('Escape');
        for (const [action, ok] of [
          ['status', 'project-status-ok'],
          ['delete', 'project-delete-ok'],
        ] as const) {
          prefix = await openList(page, view, true);
          await clickAction(page, prefix, action, () => page.getByTestId(ok).isVisible());
          await page.keyboard.press('Escape');
          await expect(page.getByTestId(ok)).toBeHidden();
        }
        expect(errors).toEqual([]);
      });
    }

    for (const language of ['zh_Hans', 'en'] as const) {
      test(`a card's actions fit whole, or show their icon with its name, in ${language}`, async ({ page }) => {
        await signIn(page, language);
        const prefix = await openList(page, 'card');
        for (const action of ['admin', 'front', 'more']) {
          const button = page.getByTestId(`${prefix}-${action}`);
          // nothing cut short ("打开…"): each text shown has its whole width
          const cut = await button.evaluate((element) =>
            [element, ...Array.from(element.querySelectorAll('span'))].some(
              (part) => part.scrollWidth > part.clientWidth + 1,
            ),
          );
          expect(cut, `${action} cut short`).toBe(false);
        }
        for (const site of ['admin', 'front']) {
          const button = page.getByTestId(`${prefix}-${site}`);
          const name =
            language === 'en'
              ? site === 'admin'
                ? 'Back office'
                : 'Front site'
              : `打开${site === 'admin' ? '后台' : '前台'}`;
          await expect(button).toHaveAccessibleName(name);
          await button.hover();
          await expect(page.getByRole('tooltip', { name })).toBeVisible();
        }
      });
    }
  });
}

test('saves a selector with three options made in the editor and shows its value on the detail', async ({
  page,
  request,
}) => {
  const errors = watchErrors(page);
  await signIn(page);
  await page.goto('/portal/#/app/settings/project');
  await page.getByTestId('project-expand-add').click();
  const row = page.getByTestId('project-expand-row-0');
  await expect(row).toBeVisible();
  await page.getByTestId('project-expand-name-0').fill('stage');
  await page.getByTestId('project-expand-title-0').fill('阶段');
  await pickOption(page, 'project-expand-widget-0', '选择器');
  for (const [i, value, label] of [
    [0, 'plan', '规划'],
    [1, 'run', '运行'],
    [2, 'done', '完成'],
  ] as const) {
    await page.getByTestId('project-expand-choice-add-0').click();
    await page.getByTestId(`project-expand-choice-0-${i}-value`).fill(value);
    await page.getByTestId(`project-expand-choice-0-${i}-label`).fill(label);
  }
  await page.screenshot({ path: `${ARTIFACTS}/hub-extension-editor.png`, fullPage: true });
  await page.getByTestId('project-expand-save').click();
  await expect(page.getByText('保存成功')).toBeVisible();

  // the project keeps a value (the project form's field), which its detail shows by label
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const expand = await request.get(`${API}/project/_expand`, { headers: { authorization: `Bearer ${admin}` } });
  expect(JSON.stringify((await expand.json()).schema.fields[0].options.options)).toContain('done');
  await page.goto(`/portal/#/app/model/Project/${PROJECT}/edit`);
  await pickOption(page, 'project-extra-stage', '运行');
  await page.getByTestId('project-save').click();
  await expectRoute(page, '/app/model/Project/list');
  await page.goto(`/portal/#/app/model/Project/${PROJECT}/detail`);
  await expect(page.getByTestId('project-detail-extra-stage')).toHaveText('运行');
  await page.screenshot({ path: `${ARTIFACTS}/hub-extension-detail.png`, fullPage: true });
  expect(errors).toEqual([]);
});
