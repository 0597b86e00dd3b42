import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { PATHS } from '../apps/console/src/app/paths';
import { ADMIN_PASSWORD } from './accounts';
import { apiLogin, expect, expectRoute, fillLogin, test } from './helpers';
import { ensureAdmin, ensureLicence, ensureProject, ensureTenant } from './seed';

/**
 * Issue 32: every console route of the route map (apps/console/src/app/paths.ts), signed in as the
 * administrator and as a tenant, in both languages, at 1440 and 390 px: axe (WCAG 2 A/AA) finds no
 * critical or serious problem, and the page throws no error and logs no console error. A screenshot
 * of each goes to artifacts/screenshots/a11y/ (not committed).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = path.join(ROOT, 'artifacts', 'screenshots', 'a11y');
mkdirSync(SHOTS, { recursive: true });
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const TENANT = { id: 'a11ytenant', password: 'A11yTenant1', name: '无障碍检查租户' };
const ADMIN_PROJECT = { id: 'a11yadmin', name: 'Accessibility plant' };
const TENANT_PROJECT = { id: 'a11yown', name: '租户自己的项目' };

/** Every route with its parameters filled: the project or tenant the signed-in user may open. */
function routes(projectId: string): string[] {
  const filled: Record<string, string> = { id: projectId };
  return Object.entries(PATHS).map(([name, pattern]) =>
    pattern.replace(/:(\w+)/g, (_, param: string) => (name.startsWith('tenant') ? TENANT.id : (filled[param] ?? ''))),
  );
}

const VIEWPORTS = [
  { name: '1440', width: 1440, height: 900 },
  { name: '390', width: 390, height: 844 },
] as const;
const LANGUAGES = ['zh_Hans', 'en'] as const;
const USERS = [
  { who: 'admin', username: 'admin', password: ADMIN_PASSWORD, project: ADMIN_PROJECT.id },
  { who: 'tenant', username: TENANT.id, password: TENANT.password, project: TENANT_PROJECT.id },
] as const;

test.beforeAll(async ({ request }) => {
  const admin = await ensureAdmin(request);
  await ensureLicence(request, admin);
  await ensureTenant(request, admin, { ...TENANT, validityPeriod: 30, tableCount: 10 });
  await ensureProject(request, admin, { ...ADMIN_PROJECT, validityPeriod: 30 });
  const tenant = await apiLogin(request, TENANT.id, TENANT.password);
  await ensureProject(request, tenant, { ...TENANT_PROJECT, validityPeriod: 20 });
});

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Waits until the page is at rest: no request in flight for 300 ms (a hash route's data loads after
 * `goto` returns; `networkidle` was reached on the first load) and no finite animation or transition
 * running, so axe measures colours at rest, not halfway through a fade (e.g. a button turning enabled).
 */
async function settled(page: Page, network: { inFlight: number; since: number }): Promise<void> {
  await expect.poll(() => network.inFlight === 0 && Date.now() - network.since > 300, { timeout: 20_000 }).toBe(true);
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      undefined,
      { polling: 100, timeout: 5_000 },
    )
    .catch(() => undefined);
}

async function axeFindings(page: Page): Promise<Finding[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] },
      resultTypes: ['violations'],
    })) as {
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
    };
    return result.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        targets: v.nodes.slice(0, 3).map((node) => node.target.map(String).join(' ')),
      }));
  });
}

for (const user of USERS) {
  for (const language of LANGUAGES) {
    for (const viewport of VIEWPORTS) {
      test(`axe and no errors on every route: ${user.who}, ${language}, ${viewport.name}`, async ({ page }) => {
        test.setTimeout(600_000);
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(`${page.url()}: page error: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(`${page.url()}: console error: ${message.text()}`);
        });
        const network = { inFlight: 0, since: Date.now() };
        const requestEnded = () => {
          network.inFlight -= 1;
          network.since = Date.now();
        };
        page.on('request', () => {
          network.inFlight += 1;
          network.since = Date.now();
        });
        page.on('requestfinished', requestEnded);
        page.on('requestfailed', requestEnded);
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.addInitScript((lang) => localStorage.setItem('gantry.language', lang), language);
        await page.goto('/portal/#/login');
        await fillLogin(page, user.username, user.password);
        await expectRoute(page, '/app/dashboard');

        const problems: string[] = [];
        for (const route of routes(user.project)) {
          await page.goto(`/portal/#${route}`);
          await page.waitForLoadState('networkidle');
          // The route's lazy page has rendered (no loading spinner left in the content).
          await expect(page.locator('.ant-spin-spinning'))
            .toHaveCount(0, { timeout: 20_000 })
            .catch(() => undefined);
          await settled(page, network);
          const name = `${user.who}-${language}-${viewport.name}-${route.replace(/^\/app\//, '').replace(/\W+/g, '_')}`;
          await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
          for (const finding of await axeFindings(page)) {
            problems.push(
              `${route}: ${finding.impact} ${finding.id} (${finding.help}) at ${finding.targets.join(' | ')}`,
            );
          }
        }
        expect({ problems, errors }).toEqual({ problems: [], errors: [] });
      });
    }
  }
}
