import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD } from './accounts';
import { apiLogin, expect, expectRoute, fillLogin, test } from './helpers';
import { ensureAdmin, ensureLicence, ensureProject, ensureTenant } from './seed';

/**
 * Issue 10: every list and card screen at a desktop (1440×900), a small laptop (1000×800) and a phone
 * (390×844), with long names and owners: no action overlaps another, the name (primary column) is
 * not cut off, and the window never scrolls sideways. Screenshots of each go to test-results/layout/.
 */
const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'layout');
mkdirSync(SHOTS, { recursive: true });

const TENANT = { id: 'layoutowner', password: 'Layout1234' };
const LONG_TENANT = '华东区域智慧能源运营管理有限公司（第一分公司）生产运营中心';
const LONG_NAMES = [
  '东部工业园区智慧能源综合管理平台',
  'North Harbour Water Treatment Plant',
  '西北油田第三采油厂数据采集与监控系统',
  '城市供热管网运行监测',
  'Coal Mine 7 Ventilation & Safety',
  '制药车间洁净环境监控二期',
];

const WIDTHS = [
  { name: '1440', width: 1440, height: 900 },
  { name: '1000', width: 1000, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;

test.beforeAll(async ({ request }) => {
  const admin = await ensureAdmin(request);
  await ensureLicence(request, admin);
  await ensureTenant(request, admin, {
    ...TENANT,
    name: LONG_TENANT,
    remarks: '负责华东区域全部生产基地的能源与安全运营，包括六个园区、十二座厂站以及相关的调度中心',
    userCount: 20,
    tableCount: 20,
    points: 200,
    screens: 40,
    validityPeriod: 60,
  });
  for (let i = 2; i <= 4; i++) {
    await ensureTenant(request, admin, {
      id: `layouttenant${i}`,
      password: TENANT.password,
      name: `Tenant ${i} — Regional Operations and Maintenance Services`,
      validityPeriod: 10 + i,
    });
  }
  // Platform projects, some ending within 14 days (the dashboard's list), and the tenant's own.
  for (const [i, name] of LONG_NAMES.entries()) {
    await ensureProject(request, admin, {
      id: `layoutp${i}`,
      name,
      remarks: `${name}：项目说明文字较长，用来检查备注列的省略与提示`,
      validityPeriod: 3 + i,
    });
  }
  const tenant = await apiLogin(request, TENANT.id, TENANT.password);
  for (let i = 0; i < 3; i++) {
    await ensureProject(request, tenant, {
      id: `layoutt${i}`,
      name: LONG_NAMES[i] ?? `Tenant project ${i}`,
      validityPeriod: 5 + i,
      screens: 10,
    });
  }
});

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('gantry.language', 'zh_Hans'));
  await page.goto('/portal/#/login');
  await fillLogin(page, username, password);
  await expectRoute(page, '/app/dashboard');
}

interface Box {
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the page's layout gets wrong, as readable lines (empty when all is well). */
async function layoutProblems(page: Page, fits: boolean): Promise<string[]> {
  return page.evaluate((fits) => {
    const problems: string[] = [];
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
    };
    const box = (el: Element, label: string): Box => {
      const r = el.getBoundingClientRect();
      return { label, x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const overlap = (a: Box, b: Box) =>
      a.x + a.width > b.x + 1 && b.x + b.width > a.x + 1 && a.y + a.height > b.y + 1 && b.y + b.height > a.y + 1;
    const text = (el: Element) => (el.textContent ?? '').trim().slice(0, 40);

    // 1. the window does not scroll sideways
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth) {
      problems.push(`document scrolls sideways: ${doc.scrollWidth} > ${window.innerWidth}`);
    }

    // 2. action areas: no action overlaps another, none sticks out of its area
    const groups: Element[] = [
      ...Array.from(document.querySelectorAll('.ant-card-actions')),
      ...Array.from(document.querySelectorAll('tr.ant-table-row'))
        .map((row) => row.lastElementChild)
        .filter((c) => c !== null),
    ];
    for (const group of groups) {
      if (!visible(group)) continue;
      const area = box(group, 'area');
      const actions = Array.from(group.querySelectorAll('button, a'))
        .filter(visible)
        .map((el) => box(el, text(el)));
      for (const [i, a] of actions.entries()) {
        if (a.x < area.x - 1 || a.x + a.width > area.x + area.width + 1) {
          problems.push(`action '${a.label}' sticks out of its area (${Math.round(a.x)}+${Math.round(a.width)})`);
        }
        for (const b of actions.slice(i + 1)) {
          if (overlap(a, b)) problems.push(`actions '${a.label}' and '${b.label}' overlap`);
        }
      }
    }

    // 3. table cells of a row do not cover each other (a fixed column over the others). Where the
    //    table is wider than its box it scrolls, and a fixed column rightly lies over what scrolls.
    for (const row of Array.from(document.querySelectorAll('tr.ant-table-row'))) {
      const scroller = row.closest('.ant-table-body, .ant-table-content');
      const scrolls = scroller !== null && scroller.scrollWidth > scroller.clientWidth + 1;
      const cells = Array.from(row.children)
        .filter((cell) => !(scrolls && /ant-table-cell-fix/.test(cell.className)))
        .filter(visible)
        .map((cell, i) => box(cell, `cell ${i} '${text(cell)}'`));
      for (const [i, a] of cells.entries()) {
        for (const b of cells.slice(i + 1)) if (overlap(a, b)) problems.push(`${a.label} and ${b.label} overlap`);
      }
    }

    // 4. the primary column: names whole (or, in a table cell cut short, the whole name in its title)
    for (const name of Array.from(document.querySelectorAll('[data-testid^="project-card-"][data-testid$="-name"]'))) {
      if (name.scrollHeight > name.clientHeight + 1 || name.scrollWidth > name.clientWidth + 1) {
        problems.push(`card name cut off: '${text(name)}'`);
      }
    }
    for (const cell of Array.from(document.querySelectorAll('[data-testid^="project-row-"][data-testid$="-name"]'))) {
      const full = (cell.textContent ?? '').trim();
      const inner = cell.querySelector('.ant-table-cell-content') ?? cell;
      const cut = inner.scrollWidth > inner.clientWidth + 1;
      const titled = [cell, ...Array.from(cell.querySelectorAll('[title]'))].some(
        (el) => el.getAttribute('title') === full,
      );
      if (cut && !titled) problems.push(`table name cut off without its title: '${full}'`);
    }
    for (const selector of [
      '[data-testid^="tenant-row-"] > td:first-child',
      '[data-testid^="history-row-"] > td:nth-child(1)',
      '[data-testid^="history-row-"] > td:nth-child(2)',
    ]) {
      for (const cell of Array.from(document.querySelectorAll(selector))) {
        if (cell.scrollWidth > cell.clientWidth + 1) problems.push(`cell cut off: '${text(cell)}' (${selector})`);
      }
    }
    // card titles are never pushed out by the card's buttons (当前授权, 租户管理 at 390 px)
    for (const title of Array.from(document.querySelectorAll('.ant-card-head-title'))) {
      if (title.scrollWidth > title.clientWidth + 1) problems.push(`card title cut off: '${text(title)}'`);
    }
    // 5. where the page has the room, the tables fit without scrolling
    if (fits) {
      for (const scroller of Array.from(document.querySelectorAll('.ant-table-body, .ant-table-content'))) {
        if (scroller.scrollWidth > scroller.clientWidth + 1) {
          problems.push(`table scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
        }
      }
    }
    return problems;
  }, fits);
}

/** `fits`: the screen's tables must fit without scrolling (the project and tenant lists at 1,440 px). */
async function check(page: Page, screen: string, width: string, fits = false): Promise<void> {
  // wait for the data and for antd's measuring (fixed columns, sticky scrollbar)
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  // cards still loading show skeletons, not spinners (the tenant dashboard's grants)
  await expect(page.locator('.ant-skeleton')).toHaveCount(0);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${screen}-${width}.png`), fullPage: true });
  expect(await layoutProblems(page, fits), `${screen} at ${width} px`).toEqual([]);
}

async function projectScreens(page: Page, who: string, width: string): Promise<void> {
  await page.goto('/portal/#/app/model/Project/list');
  await expect(page.getByTestId('project-grid')).toBeVisible();
  await expect(page.locator('[data-testid^="project-card-layout"][data-testid$="-name"]').first()).toBeVisible();
  await check(page, `${who}-project-cards`, width);
  await page.getByTestId('project-view-toggle').locator('.anticon-unordered-list').click();
  await expect(page.getByTestId('project-table')).toBeVisible();
  await expect(page.locator('[data-testid^="project-row-layout"]').first()).toBeVisible();
  await check(page, `${who}-project-table`, width, width === '1440');
  // back to the cards for the next visit
  await page.getByTestId('project-view-toggle').locator('.anticon-appstore').click();
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test(`administrator screens fit at ${size.width} px`, async ({ page }) => {
      await signIn(page, 'admin', ADMIN_PASSWORD);
      await expect(page.getByTestId('dashboard-expiring')).toBeVisible();
      await check(page, 'admin-dashboard', size.name);
      await page.goto('/portal/#/app/dashboard/expiring');
      await expect(page.getByTestId('expiring-projects')).toBeVisible();
      await check(page, 'admin-expiring', size.name);
      await projectScreens(page, 'admin', size.name);
      await page.goto('/portal/#/app/model/User/list');
      await expect(page.getByTestId(`tenant-row-${TENANT.id}`)).toBeVisible();
      await check(page, 'admin-tenants', size.name, size.name === '1440');
      await page.goto('/portal/#/app/license');
      await expect(page.getByTestId('license-overview').or(page.getByTestId('license-empty')).first()).toBeVisible();
      await check(page, 'admin-licence', size.name);
      await page.goto('/portal/#/app/model/Licenseinfo/list');
      await expect(page.getByTestId('history-table')).toBeVisible();
      await check(page, 'admin-licence-history', size.name);
      await page.goto('/portal/#/app/audit');
      await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
      await check(page, 'admin-audit', size.name);
      await page.goto('/portal/#/app/license/services');
      await expect(page.getByTestId('license-services-page')).toBeVisible();
      await check(page, 'admin-services', size.name);
    });

    test(`tenant screens fit at ${size.width} px`, async ({ page }) => {
      await signIn(page, TENANT.id, TENANT.password);
      await check(page, 'tenant-dashboard', size.name);
      await projectScreens(page, 'tenant', size.name);
    });
  });
}

test('the dashboard lists the five nearest ending grants and links to all of them', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const projects = page.getByTestId('dashboard-expiring-projects');
  await expect(projects.locator('li')).toHaveCount(5);
  await page.getByTestId('dashboard-expiring-all').click();
  await expectRoute(page, '/app/dashboard/expiring');
  await expect(page.locator('[data-testid^="expiring-project-layoutp"]')).toHaveCount(LONG_NAMES.length);
});

test("a tenant's second project is not refused for the screens it never touched", async ({ page, request }) => {
  // The tenant has 40 screens; its projects hold 30: 10 are left, and the form offers 10, not 30.
  const admin = await ensureAdmin(request);
  await ensureTenant(request, admin, {
    id: 'layoutscreens',
    password: TENANT.password,
    name: 'Screens Ltd',
    userCount: 10,
    tableCount: 10,
    points: 100,
    screens: 40,
  });
  const tenant = await apiLogin(request, 'layoutscreens', TENANT.password);
  await ensureProject(request, tenant, { id: 'screens1', name: 'First', screens: 30 });
  await signIn(page, 'layoutscreens', TENANT.password);
  await page.goto('/portal/#/app/model/Project/add');
  const screens = page.getByTestId('grant-visual-dashboardCount').locator('xpath=self::input|.//input').first();
  await expect(screens).toHaveValue('10');
  await page.getByTestId('project-name').locator('xpath=self::input|.//input').first().fill('Second');
  await page.getByTestId('project-industry').click();
  await page.keyboard.press('Enter');
  for (const [field, value] of [
    ['grant-validityPeriod', '10'],
    ['grant-userCount', '1'],
    ['grant-flow-tableCount', '1'],
    ['grant-dataGathering-point', '10'],
  ] as const) {
    await page.getByTestId(field).locator('xpath=self::input|.//input').first().fill(value);
  }
  await page.getByTestId('project-save').click();
  await expectRoute(page, '/app/model/Project/list');
  await expect(page.getByText('Second', { exact: true })).toBeVisible();
});
