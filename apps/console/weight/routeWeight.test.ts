import { describe, expect, it } from 'vitest';
import { ROUTE_BUDGETS } from './budgets';
import { allRouteWeights, kib, pagesWithoutBudget, printTable, readManifest } from './routeWeight';

/**
 * The console's weight per route (issue 10): the gzip size of the JavaScript each route loads before
 * it shows, from the build's manifest (built here when there is none; `npm test` builds first).
 */
describe('route weight budgets (weight/budgets.ts)', () => {
  const manifest = readManifest();
  const weights = allRouteWeights(manifest);

  it('every route is within its budget', () => {
    console.log(printTable(weights));
    const over = weights
      .filter((w) => w.gzip > w.budgetKib * 1024)
      .map((w) => `${w.route}: ${kib(w.gzip)} KiB > ${w.budgetKib} KiB`);
    expect(over).toEqual([]);
  });

  it('meets the issue 10 goal for the login route', () => {
    const login = weights.find((w) => w.route === '/login');
    expect(login?.budgetKib).toBeLessThanOrEqual(200);
    // the login page loads neither antd nor zod
    expect(login?.files.filter((file) => /antd|zod/.test(file))).toEqual([]);
  });

  it('every page of the console has a budget', () => {
    expect(pagesWithoutBudget(manifest)).toEqual([]);
    expect(new Set(ROUTE_BUDGETS.map((b) => b.route)).size).toBe(ROUTE_BUDGETS.length);
  });
});
