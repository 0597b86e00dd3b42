import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { translate } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { TEST_MACHINE } from '../../test/test-app.js';
import {
  call,
  closeWorlds,
  DB,
  dump,
  job,
  openWorld,
  project,
  type World,
  worlds,
} from '../db-backups/db-backup.fixtures.js';

const CYCLES = `${DB}/cycles`;
const HOUR = 3_600_000;
let w: World;

beforeEach(async () => {
  w = await openWorld();
  worlds.current = w;
});
afterEach(() => closeWorlds());

interface Cycle {
  id: string;
  name: string;
  hours: number;
  enabled: boolean;
  keep: number;
  nextRunTime: string | null;
  lastRunTime: string | null;
  lastResult: { status: string; message: string; endTime: string | null; jobId: string } | null;
}

async function create(body: object, projectId = project, token = w.acme): Promise<Cycle> {
  const response = await call('POST', CYCLES, { body, projectId, token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Cycle>();
}
async function list(projectId = project, token = w.acme): Promise<Cycle[]> {
  const response = await call('GET', CYCLES, { projectId, token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Cycle[]>();
}
async function runsOf(cycleId: string, app = w.app) {
  const result = await app.database.db.execute(
    sql`select id from tasks where starts_with(id, ${`pc_${cycleId}_`}) order by id`,
  );
  return (result as unknown as { rows: Array<{ id: string }> }).rows.map((row) => row.id);
}
async function dumps(app = w.app) {
  const result = await app.database.db.execute(
    sql`select id, task_id from db_backups where project_id = ${project} order by create_time`,
  );
  return (result as unknown as { rows: Array<{ id: string; task_id: string | null }> }).rows;
}
/** One slot later: a look starts the run, the job ends, the next look records its outcome. */
async function runOnce(cycleId: string): Promise<Cycle> {
  w.app.advance(HOUR);
  expect(await w.app.services.periodicBackups.tick()).toMatchObject({ started: 1 });
  const cycle = (await list()).find((c) => c.id === cycleId);
  const jobId = cycle?.lastResult?.jobId ?? '';
  expect(jobId.startsWith(`pc_${cycleId}_`)).toBe(true);
  await job(jobId);
  await w.app.services.periodicBackups.tick();
  const settled = (await list()).find((c) => c.id === cycleId);
  if (!settled) throw new Error('cycle gone');
  return settled;
}
/** A second server on the same database and data folder, with its own clock. */
async function secondServer(at: number) {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', GANTRY_DATA_DIR: w.app.dataDir, GANTRY_LOGIN_RATE_PER_MINUTE: '100000' }),
    persistDatabase: false,
  };
  const now = at;
  const built = await buildApp({
    config,
    database: w.app.database,
    clock: () => new Date(now),
    logger: false,
    machineIdentity: async () => TEST_MACHINE,
  });
  return built;
}

describe('periodic database backups', () => {
  it('creates, lists, changes and deletes cycles, with the limits checked and audited', async () => {
    const made = await create({ name: 'nightly', hours: 24 });
    expect(made).toMatchObject({
      name: 'nightly',
      hours: 24,
      enabled: true,
      keep: 7,
      lastRunTime: null,
      lastResult: null,
    });
    const created = Date.parse(made.nextRunTime ?? '') - 24 * HOUR;
    expect(Math.abs(created - Date.now())).toBeLessThan(60_000);
    expect(await list()).toHaveLength(1);

    // A name change keeps the schedule; a new period restarts it from now.
    w.app.advance(HOUR);
    const renamed = await call('PATCH', `${CYCLES}/${made.id}`, { body: { name: 'nightly2', keep: 3 } });
    expect(renamed.json()).toMatchObject({ name: 'nightly2', keep: 3, nextRunTime: made.nextRunTime });
    const faster = (await call('PATCH', `${CYCLES}/${made.id}`, { body: { hours: 2 } })).json<Cycle>();
    expect(Date.parse(faster.nextRunTime ?? '')).toBe(Date.parse(made.nextRunTime ?? '') - 22 * HOUR + HOUR);
    const off = (await call('PATCH', `${CYCLES}/${made.id}`, { body: { enabled: false } })).json<Cycle>();
    expect(off).toMatchObject({ enabled: false, nextRunTime: null });

    const bad = [
      [{ name: '', hours: 1 }, 'name', 'cycle name required'],
      [{ name: 'x'.repeat(31), hours: 1 }, 'name', 'The cycle name is at most 30 characters'],
      [{ name: 'a', hours: 0 }, 'hours', 'The period is a whole number of hours from 1 to 8760'],
      [{ name: 'a', hours: 8761 }, 'hours', 'The period is a whole number of hours from 1 to 8760'],
      [{ name: 'a', hours: 1.5 }, 'hours', 'The period is a whole number of hours from 1 to 8760'],
      [{ name: 'a', hours: 1, keep: 0 }, 'keep', 'The number of backups kept is a whole number from 1 to 100'],
      [{ name: 'a', hours: 1, keep: 101 }, 'keep', 'The number of backups kept is a whole number from 1 to 100'],
    ] as const;
    for (const [body, field, message] of bad) {
      const response = await call('POST', CYCLES, { body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation', fields: { [field]: message } });
    }
    const badPatch = await call('PATCH', `${CYCLES}/${made.id}`, { body: { hours: -1 } });
    expect(badPatch.statusCode).toBe(400);

    // Up to the limit (19 more, written directly: the call's own path is tested above).
    await w.app.database.db.execute(sql`
      insert into db_backup_cycles (id, project_id, name, hours, enabled, keep, anchor_at, next_run_at, create_time, update_time)
      select 'x' || n, ${project}, 'c' || n, 1, false, 7, now(), now(), now(), now() from generate_series(1, 19) n`);
    const tooMany = await call('POST', CYCLES, { body: { name: 'one more', hours: 1 } });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({
      code: 'dbBackupCycleTooMany',
      message: 'A project has at most 20 backup cycles',
    });

    const removed = await call('DELETE', `${CYCLES}/${made.id}`);
    expect(removed.json()).toEqual({ status: 'OK' });
    expect((await call('DELETE', `${CYCLES}/${made.id}`)).statusCode).toBe(404);
    expect(await list()).toHaveLength(19);

    const audit = await w.app.database.db.execute(
      sql`select action, tenant_id from audit_log where action like 'dbBackupCycle.%' order by id`,
    );
    const actions = (audit as unknown as { rows: Array<{ action: string; tenant_id: string }> }).rows;
    expect(actions.filter((a) => a.action === 'dbBackupCycle.update')).toHaveLength(3);
    expect(actions.at(-1)).toMatchObject({ action: 'dbBackupCycle.delete', tenant_id: 'acme' });
  });

  it("refuses another tenant's project and another project's cycle; the administrator reaches all", async () => {
    const mine = await create({ name: 'mine', hours: 1 });
    const rival = await create({ name: 'rival', hours: 1 }, 'rival', w.other);
    // Another tenant's project: as if it did not exist.
    expect((await call('GET', CYCLES, { projectId: 'rival' })).statusCode).toBe(404);
    expect((await call('POST', CYCLES, { projectId: 'rival', body: { name: 'x', hours: 1 } })).statusCode).toBe(404);
    expect((await call('GET', CYCLES, { projectId: null })).statusCode).toBe(400);
    // Another project's cycle, even of the same tenant, through this project: not found, and unchanged.
    for (const [method, id, projectId] of [
      ['PATCH', rival.id, project],
      ['DELETE', rival.id, project],
      ['PATCH', mine.id, 'plant2'],
      ['DELETE', mine.id, 'plant2'],
    ] as const) {
      const response = await call(method, `${CYCLES}/${id}`, {
        projectId,
        ...(method === 'PATCH' ? { body: { name: 'taken' } } : {}),
      });
      expect(response.statusCode, `${method} ${id} via ${projectId}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'dbBackupCycleNotFound' });
    }
    expect((await list('rival', w.other))[0]).toMatchObject({ name: 'rival' });
    expect((await list())[0]).toMatchObject({ name: 'mine' });
    expect(await list('plant2')).toEqual([]);
    // The administrator manages every project's cycles.
    expect(await list('rival', w.admin)).toHaveLength(1);
    const changed = await call('PATCH', `${CYCLES}/${rival.id}`, {
      projectId: 'rival',
      token: w.admin,
      body: { keep: 9 },
    });
    expect(changed.json()).toMatchObject({ keep: 9 });
  });

  it('runs a due cycle as a dump job, once per slot, and keeps only its last K periodic dumps', async () => {
    const manual = await dump('by hand');
    const cycle = await create({ name: 'hourly', hours: 1, keep: 2 });
    // Not due yet: nothing starts.
    expect(await w.app.services.periodicBackups.tick()).toEqual({ settled: 0, started: 0 });

    const first = await runOnce(cycle.id);
    expect(first.lastResult).toMatchObject({ status: 'success', message: translate('dbBackup.dumped', 'zh_Hans') });
    expect(first.lastRunTime).not.toBeNull();
    expect(Date.parse(first.nextRunTime ?? '')).toBe(Date.parse(cycle.nextRunTime ?? '') + HOUR);
    // Looked at again in the same slot: no second run.
    expect(await w.app.services.periodicBackups.tick()).toEqual({ settled: 0, started: 0 });
    expect(await runsOf(cycle.id)).toHaveLength(1);
    const listed = await call('GET', `${DB}/backup`);
    expect(listed.json<Array<{ name: string }>>().map((b) => b.name)).toEqual(['hourly', 'by hand']);

    await runOnce(cycle.id);
    await runOnce(cycle.id);
    const runs = await runsOf(cycle.id);
    expect(runs).toHaveLength(3);
    const left = await dumps();
    // The manual dump stays; of the three periodic ones the newest two.
    expect(left.map((d) => d.task_id)).toEqual([manual, runs[1], runs[2]]);
    expect(left.map((d) => d.id)).not.toContain(runs[0]);
  });

  it('a run missed while no server ran runs once at start', async () => {
    const cycle = await create({ name: 'hourly', hours: 1 });
    const anchor = Date.parse(cycle.nextRunTime ?? '') - HOUR;
    // A server started 5.5 hours later on the same database: one run, for the latest slot.
    const later = await secondServer(anchor + 5.5 * HOUR);
    try {
      await later.app.ready();
      await later.services.periodicBackups.tick();
      expect(await runsOf(cycle.id)).toEqual([`pc_${cycle.id}_${anchor + 5 * HOUR}`]);
      const [seen] = await list();
      expect(Date.parse(seen?.nextRunTime ?? '')).toBe(anchor + 6 * HOUR);
      await job(seen?.lastResult?.jobId ?? '');
    } finally {
      await later.app.close();
    }
  });

  it('two servers on one database run a slot once', async () => {
    const cycle = await create({ name: 'hourly', hours: 1 });
    const at = Date.parse(cycle.nextRunTime ?? '') + 60_000;
    const one = await secondServer(at);
    const two = await secondServer(at);
    try {
      const results = await Promise.all([
        one.services.periodicBackups.tick(),
        two.services.periodicBackups.tick(),
        one.services.periodicBackups.tick(),
        two.services.periodicBackups.tick(),
      ]);
      expect(results.reduce((sum, r) => sum + r.started, 0)).toBe(1);
      const runs = await runsOf(cycle.id);
      expect(runs).toEqual([`pc_${cycle.id}_${Date.parse(cycle.nextRunTime ?? '')}`]);
      const [seen] = await list();
      expect(seen?.lastResult?.jobId).toBe(runs[0]);
      expect(Date.parse(seen?.nextRunTime ?? '')).toBe(Date.parse(cycle.nextRunTime ?? '') + HOUR);
      await job(seen?.lastResult?.jobId ?? '');
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });

  it('a failing run is recorded and shown on the dashboard of those who see the project', async () => {
    const cycle = await create({ name: 'broken', hours: 1 });
    // The project's dump folder cannot be made: every dump of it fails.
    await mkdir(path.join(w.app.dataDir, 'backups'), { recursive: true });
    await writeFile(path.join(w.app.dataDir, 'backups', project), 'not a folder', { flag: 'wx' });
    const settled = await runOnce(cycle.id);
    expect(settled.lastResult).toMatchObject({ status: 'failed', message: expect.stringMatching(/.+/) });
    const failure = {
      projectId: project,
      projectName: expect.any(String),
      cycleId: cycle.id,
      cycleName: 'broken',
      time: settled.lastResult?.endTime,
      message: settled.lastResult?.message,
    };
    const dashboard = (token: string) => call('GET', '/portal/rest/spm/dashboard', { token, projectId: null });
    expect((await dashboard(w.acme)).json()).toMatchObject({ backupFailures: [failure] });
    expect((await dashboard(w.admin)).json()).toMatchObject({ backupFailures: [failure] });
    expect((await dashboard(w.other)).json()).toMatchObject({ backupFailures: [] });
    expect(await dumps()).toEqual([]);
    // The run's job says the same.
    const failed = await call('GET', `${DB}/${settled.lastResult?.jobId}`);
    expect(failed.json()).toMatchObject({ status: 'failed' });
  });
});
