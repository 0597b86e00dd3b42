import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { adminWithLicence, SPM_URL, signedInTenant } from '../../test/fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** The audit log as operators use it (issue 34 §5): filters in the list API, exports, retention. */
let app: TestApp;
let admin: string;
const DAY = 86_400_000;

beforeEach(async () => {
  app = await createTestApp();
  admin = await adminWithLicence(app);
});
afterEach(() => app.close());

/** `count` entries by `actor` of `action` on `objectId`, written `daysAgo` days ago. */
async function entries(count: number, fields: { actor: string; action: string; objectId: string; daysAgo: number }) {
  const at = new Date(Date.now() - fields.daysAgo * DAY);
  const rows = Array.from({ length: count }, (_, i) => ({
    actorId: fields.actor,
    actorName: `Name of ${fields.actor}`,
    tenantId: null,
    action: fields.action,
    objectType: 'tenant',
    objectId: fields.objectId,
    ip: '127.0.0.1',
    detail: { i, note: i === 0 ? '=HYPERLINK("x")' : 'plain' },
    at,
  }));
  for (let start = 0; start < rows.length; start += 500) {
    await app.database.db.insert(auditLog).values(rows.slice(start, start + 500));
  }
}

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const count = async (filter: unknown) =>
  (await app.call('GET', `${SPM_URL}/audit/count?query=${q(filter)}`, admin)).json<{ count: number }>().count;

describe('audit filters', () => {
  it('filters by actor, action, target and time range in the list API', async () => {
    await entries(3, { actor: 'alice', action: 'tenant.update', objectId: 'acme', daysAgo: 1 });
    await entries(2, { actor: 'bob', action: 'tenant.delete', objectId: 'beta', daysAgo: 10 });
    await entries(4, { actor: 'alice', action: 'tenant.disable', objectId: 'beta', daysAgo: 40 });
    expect(await count({ actorId: 'alice' })).toBe(7);
    expect(await count({ action: 'tenant.delete' })).toBe(2);
    expect(await count({ objectId: 'beta' })).toBe(6);
    const since = new Date(Date.now() - 20 * DAY).toISOString();
    const until = new Date(Date.now() - 5 * DAY).toISOString();
    expect(await count({ at: { gte: since, lt: until } })).toBe(2);
    expect(await count({ actorId: 'alice', objectId: 'beta', at: { lt: until } })).toBe(4);
    const page = await app.call(
      'GET',
      `${SPM_URL}/audit?query=${q({ filter: { objectId: 'acme' }, sort: { at: -1 }, limit: 2, withCount: true })}`,
      admin,
    );
    expect(page.json()).toHaveLength(2);
    expect(page.headers.count).toBe('3');
  });
});

describe('audit export', () => {
  it('streams CSV of the filtered entries across pages, spreadsheet formulas defused', async () => {
    await entries(1_205, { actor: 'alice', action: 'tenant.update', objectId: 'acme', daysAgo: 1 });
    await entries(7, { actor: 'bob', action: 'tenant.delete', objectId: 'beta', daysAgo: 2 });
    const response = await app.call(
      'GET',
      `${SPM_URL}/audit/export?format=csv&query=${q({ actorId: 'alice' })}`,
      admin,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('\uFEFFid,at,actorId,actorName,tenantId,action,objectType,objectId,ip,detail');
    expect(lines).toHaveLength(1 + 1_205);
    expect(lines.slice(1).every((line) => line.includes(',alice,Name of alice,,tenant.update,tenant,acme,'))).toBe(
      true,
    );
    // Newest first, no entry twice across the pages.
    const ids = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(response.body).toContain(`"{""i"":0,""note"":""=HYPERLINK(\\""x\\"")""}"`);
  });

  it('streams JSON lines, one entry per line, and refuses a bad filter before the download', async () => {
    await entries(3, { actor: 'carol', action: 'sso.login', objectId: 'acme', daysAgo: 1 });
    await entries(2, { actor: 'dave', action: 'sso.refused', objectId: 'x', daysAgo: 1 });
    const response = await app.call(
      'GET',
      `${SPM_URL}/audit/export?format=jsonl&query=${q({ action: 'sso.login' })}`,
      admin,
    );
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = response.body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      actorId: 'carol',
      action: 'sso.login',
      objectId: 'acme',
      detail: { note: 'plain' },
    });
    const bad = await app.call('GET', `${SPM_URL}/audit/export?format=jsonl&query=${q({ nope: 1 })}`, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('badQuery');
    expect((await app.call('GET', `${SPM_URL}/audit/export?format=xml`, admin)).statusCode).toBe(400);
  });

  it('is the administrator’s', async () => {
    const tenant = await signedInTenant(app, admin, 'acme');
    expect((await app.call('GET', `${SPM_URL}/audit/export`, tenant)).statusCode).toBe(403);
    expect((await app.call('GET', `${SPM_URL}/audit/export`)).statusCode).toBe(401);
  });
});

describe('audit retention', () => {
  async function runRetention() {
    // The test clock stands still: the second run must be the latest one.
    app.advance(1_000);
    const run = await app.call('POST', `${SPM_URL}/setting/bbs_realtime/run`, admin);
    expect(run.statusCode).toBe(200);
    const id = run.json<{ id: string }>().id;
    const last = async () => (await app.call('GET', `${SPM_URL}/setting/bbs_realtime/last-run`, admin)).json().task;
    await expect
      .poll(
        async () => {
          const task = await last();
          return task.id === id && task.status !== 'ongoing';
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(true);
    return last();
  }

  it('keeps every entry by default, and deletes those older than the setting with the time series', async () => {
    await entries(1_100, { actor: 'old', action: 'tenant.update', objectId: 'a', daysAgo: 40 });
    await entries(5, { actor: 'recent', action: 'tenant.update', objectId: 'a', daysAgo: 20 });
    const before = await count({});
    const kept = await runRetention();
    expect(kept.status).toBe('success');
    expect(await count({})).toBe(before);

    const saved = await app.call('PATCH', `${SPM_URL}/setting`, admin, { auditRetention: { count: 1, unit: 'M' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().auditRetention).toEqual({ count: 1, unit: 'M', time: 30 * 86_400 });
    const ran = await runRetention();
    expect(ran.status, ran.message).toBe('success');
    // In the language of the run (the caller's; the test app speaks Chinese by default).
    expect(ran.message).toMatch(/之前写入的 1100 条操作日志/);
    expect(await count({ actorId: 'old' })).toBe(0);
    expect(await count({ actorId: 'recent' })).toBe(5);
  }, 90_000);
});
