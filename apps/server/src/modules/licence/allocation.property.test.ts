/**
 * Property: whatever mix of concurrent project creations, grant edits, owner changes and deletions
 * under tenants and the platform (and tenant grant edits and creations under the platform) runs at
 * once, no parent ever has handed out more than it holds, measure by measure, and every refusal is a
 * 400 `grantInvalid` (or a 404 for a project another call of the same batch deleted or moved), never
 * a 5xx. Runs on PGlite and, with GANTRY_TEST_DATABASE_URL, on PostgreSQL where the calls really
 * overlap.
 */
import { type Grant, type GrantInput, grantSchema, MEASURE_PATHS, measureOf } from '@gantry/shared';
import { eq, inArray, not, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { projects, users } from '../../db/schema.js';
import { createTenant, day, installPlatform, SPM_URL, TENANT_PASSWORD } from '../../test/fixtures.js';
import { createTestApp, type TestApp, wire } from '../../test/test-app.js';

const TENANTS = ['ptena', 'ptenb'] as const;
type OwnerId = (typeof TENANTS)[number] | 'admin';
const OWNERS: OwnerId[] = [...TENANTS, 'admin'];

interface Amounts {
  users: number;
  tables: number;
  points: number | undefined;
  days: number;
}
const amounts = (max: number, maxDays: number, minDays = 1) =>
  fc.record({
    users: fc.integer({ min: 1, max }),
    tables: fc.integer({ min: 1, max }),
    points: fc.option(fc.integer({ min: 1, max: max * 4 }), { nil: undefined }),
    days: fc.integer({ min: minDays, max: maxDays }),
  });

type Op =
  | { kind: 'create'; owner: OwnerId; byTenant: boolean; a: Amounts }
  | { kind: 'edit'; pick: number; byTenant: boolean; a: Amounts }
  | { kind: 'delete'; pick: number; byTenant: boolean }
  | { kind: 'move'; pick: number; to: OwnerId; a: Amounts }
  | { kind: 'tenant'; tenant: (typeof TENANTS)[number]; a: Amounts }
  | { kind: 'newTenant'; a: Amounts };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      owner: fc.constantFrom(...OWNERS),
      byTenant: fc.boolean(),
      a: amounts(4, 160),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      pick: fc.nat(),
      byTenant: fc.boolean(),
      a: amounts(4, 160),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(), byTenant: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      pick: fc.nat(),
      to: fc.constantFrom(...OWNERS),
      a: amounts(4, 160),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('tenant' as const),
      tenant: fc.constantFrom(...TENANTS),
      a: amounts(10, 200, 120),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('newTenant' as const), a: amounts(8, 200, 120) }) },
);

const scenarioArbitrary = fc.record({
  platform: fc.record({
    users: fc.integer({ min: 6, max: 30 }),
    tables: fc.integer({ min: 6, max: 30 }),
    points: fc.integer({ min: 20, max: 120 }),
  }),
  tenants: fc.tuple(amounts(15, 200, 120), amounts(15, 200, 120)),
  batches: fc.array(fc.array(opArbitrary, { minLength: 2, maxLength: 10 }), { minLength: 2, maxLength: 4 }),
});

let app: TestApp;
let admin: string;
const tenantTokens: Partial<Record<OwnerId, string>> = {};
let run = 0;

function grantOf(a: Amounts, cap?: { users: number; tables: number }): GrantInput {
  return {
    validityPeriod: a.days,
    startTime: day(app),
    userCount: cap ? Math.min(a.users, cap.users) : a.users,
    flow: { tableCount: cap ? Math.min(a.tables, cap.tables) : a.tables },
    ...(a.points === undefined ? {} : { dataGathering: { point: a.points } }),
    features: [],
  };
}

function call(
  token: string | undefined,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.call(method, `${SPM_URL}${url}`, token, payload);
}

const projectPayload = (a: Amounts, user?: OwnerId) => ({
  name: 'Allocated',
  industry: 'coal',
  projectType: 'blank',
  grant: grantOf(a),
  ...(user ? { user } : {}),
});

/** The grants at the three levels, straight from the database. */
async function readGrants() {
  const [row] = await queryRows<{
    platform: Grant;
    tenants: Array<{ id: string; grant: Grant | null }>;
    projects: Array<{ id: string; owner: string; grant: Grant | null }>;
  }>(
    app.database.db,
    sql`select
      (select "grant" from licences where id = 'platform-spm') as platform,
      (select coalesce(jsonb_agg(jsonb_build_object('id', id, 'grant', "grant")), '[]'::jsonb) from users where not is_admin) as tenants,
      (select coalesce(jsonb_agg(jsonb_build_object('id', id, 'owner', user_id, 'grant', "grant") order by id), '[]'::jsonb) from projects) as projects`,
  );
  if (!row) throw new Error('no grants');
  return row;
}

/** Every parent holds at least what its children hold, measure by measure. */
async function assertWithinParents(context: string): Promise<void> {
  const { platform, tenants, projects: rows } = await readGrants();
  const children = new Map<string, Array<Grant | null>>([['admin', [...tenants.map((t) => t.grant)]]]);
  for (const tenant of tenants) children.set(tenant.id, []);
  for (const project of rows) children.get(project.owner)?.push(project.grant);
  for (const [parentId, grants] of children) {
    const parent = parentId === 'admin' ? platform : tenants.find((t) => t.id === parentId)?.grant;
    for (const path of MEASURE_PATHS) {
      const limit = measureOf(parent, path);
      if (limit === undefined) continue;
      const held = grants.reduce((sum, g) => sum + (measureOf(g, path) ?? 0), 0);
      expect(held, `${context}: ${parentId} hands out ${held} ${path} of ${limit}`).toBeLessThanOrEqual(limit);
    }
  }
}

/** Back to a platform and two tenants with no projects, the given grants. */
async function reset(platform: { users: number; tables: number; points: number }, initial: [Amounts, Amounts]) {
  const { db } = app.database;
  await db.delete(projects);
  await db.delete(users).where(not(inArray(users.id, ['admin', ...TENANTS])));
  await installPlatform(app, {
    userCount: platform.users,
    flow: { tableCount: platform.tables },
    dataGathering: { point: platform.points },
    features: [],
  });
  // Each tenant at most half the platform, so the starting point is within the rules.
  const half = { users: Math.floor(platform.users / 2), tables: Math.floor(platform.tables / 2) };
  for (const [i, tenant] of TENANTS.entries()) {
    const a = initial[i] as Amounts;
    const points = a.points === undefined ? undefined : Math.min(a.points, Math.floor(platform.points / 2));
    await db
      .update(users)
      .set({ grant: grantSchema.parse(grantOf({ ...a, points }, half)), status: true })
      .where(eq(users.id, tenant));
  }
}

type Known = { id: string; owner: string } | undefined;

/** The call an operation makes (none when it names a project and there is none yet). */
function send(op: Op, id: string, picked: (pick: number) => Known): Promise<LightMyRequestResponse> | undefined {
  switch (op.kind) {
    case 'create': {
      const token = op.byTenant && op.owner !== 'admin' ? tenantTokens[op.owner] : admin;
      return call(token, 'POST', '/project', { id, ...projectPayload(op.a, token === admin ? op.owner : undefined) });
    }
    case 'edit':
    case 'delete': {
      const target = picked(op.pick);
      if (!target) return undefined;
      const token = op.byTenant ? (tenantTokens[target.owner as OwnerId] ?? admin) : admin;
      if (op.kind === 'delete') return call(token, 'DELETE', `/project/${target.id}`);
      return call(token, 'PUT', `/project/${target.id}`, projectPayload(op.a));
    }
    case 'move': {
      const target = picked(op.pick);
      return target && call(admin, 'PUT', `/project/${target.id}`, projectPayload(op.a, op.to));
    }
    case 'tenant':
      return call(admin, 'PATCH', `/user/${op.tenant}`, { grant: grantOf(op.a) });
    case 'newTenant':
      return call(admin, 'POST', '/user', {
        id: `n${id}`,
        name: 'New',
        type: 0,
        industry: 'coal',
        grant: grantOf(op.a),
        password: wire(TENANT_PASSWORD),
        password1: wire(TENANT_PASSWORD),
      });
  }
}

beforeAll(async () => {
  app = await createTestApp();
  await app.registerAdmin();
  await installPlatform(app, { userCount: 100, flow: { tableCount: 100 }, dataGathering: {}, features: [] });
  admin = await app.login();
  for (const tenant of TENANTS) {
    await createTenant(app, admin, tenant, { grant: grantOf({ users: 1, tables: 1, points: undefined, days: 10 }) });
    tenantTokens[tenant] = await app.login(tenant, TENANT_PASSWORD);
  }
  tenantTokens.admin = admin;
}, 120_000);
afterAll(() => app.close());

describe('licence allocation under concurrency', () => {
  it('never hands out more than a parent holds; refusals are grantInvalid, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async ({ platform, tenants, batches }) => {
        run++;
        await reset(platform, tenants);
        await assertWithinParents(`run ${run} start`);
        for (const [b, batch] of batches.entries()) {
          const known = (await readGrants()).projects;
          const picked = (pick: number) => (known.length ? known[pick % known.length] : undefined);
          const removed = new Set(
            batch.flatMap((op) =>
              (op.kind === 'delete' || op.kind === 'move') && picked(op.pick) ? [picked(op.pick)?.id] : [],
            ),
          );
          const calls = batch.map((op, i) => send(op, `q${run}b${b}n${i}`, picked));
          const answers = await Promise.all(calls);
          for (const [i, answer] of answers.entries()) {
            if (!answer) continue;
            const op = batch[i] as Op;
            const context = `run ${run} batch ${b} op ${i} ${JSON.stringify(op)}: ${answer.statusCode} ${answer.body}`;
            expect(answer.statusCode, context).toBeLessThan(500);
            if (answer.statusCode < 300) continue;
            const { code } = answer.json<{ code: string }>();
            const target = 'pick' in op ? picked(op.pick)?.id : undefined;
            const goneMeanwhile = answer.statusCode === 404 && target !== undefined && removed.has(target);
            expect(goneMeanwhile || (answer.statusCode === 400 && code === 'grantInvalid'), context).toBe(true);
          }
          await assertWithinParents(`run ${run} after batch ${b}`);
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
