import { BACKUP_TASK_IMPORT, TEMPLATE_TASK_INSTALL } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentPartitions } from '../modules/backups/document-partitions.repository.js';
import { SERVER_STOPPED } from '../modules/tasks/task.engine.js';
import { appWithTenants, createProject } from '../test/fixtures.js';
import type { TestApp } from '../test/test-app.js';
import { leftInDatabase } from './lifecycle.js';

/** The start's one recovery statement: true for each kind of work a stopped server leaves, false without. */
describe('what a stopped server left in the database', () => {
  let app: TestApp;
  let project: string;
  const left = () => {
    const { tasks, backups, templates } = app.services;
    return leftInDatabase(app.database.background, [tasks, backups, templates]);
  };
  const task = (id: string, type: string, status: string, runner: string | null, params: object = {}) =>
    app.database.db.execute(sql`insert into tasks (id, type, status, params, requester, request_id, message, runner, start_time, updated_at)
      values (${id}, ${type}, ${status}, ${JSON.stringify(params)}::jsonb, 'test', 'test',
        ${status === 'failed' ? SERVER_STOPPED : null}, ${runner}, now(), now())`);
  const restoreRecord = (id: string, taskId: string) =>
    app.database.db.execute(sql`insert into project_backups (id, project_id, name, type, status, item, module_rules,
        excluded_dirs, documents, bytes, source_project_id, task_id, create_time, update_time)
      values (${id}, ${project}, 'restored', 'import', 'success', '{"fileServer":false,"html":false,"mongodb":true}',
        '{}', '[]', '{}', 0, ${project}, ${taskId}, now(), now())`);
  const clear = async () => {
    await app.database.db.execute(sql`delete from project_backups`);
    await app.database.db.execute(sql`delete from tasks`);
  };

  beforeAll(async () => {
    const [made, , acme] = await appWithTenants(['acme']);
    app = made;
    project = (await createProject(app, acme)).id;
    await clear();
  });
  afterAll(() => app.close());

  it('says nothing is left on a database whose work all ended', async () => {
    expect(await left()).toBe(false);
    await task('done', BACKUP_TASK_IMPORT, 'succeeded', 'a-runner');
    await task('stopped', BACKUP_TASK_IMPORT, 'failed', 'a-runner');
    expect(await left()).toBe(false);
    await clear();
  });

  it('finds a task that was running', async () => {
    await task('running', 'any.type', 'ongoing', 'a-dead-process');
    expect(await left()).toBe(true);
    await clear();
  });

  it('finds a task waiting to be claimed (the start claims it: nothing else would before the first poll)', async () => {
    await task('queued', BACKUP_TASK_IMPORT, 'ongoing', null);
    expect(await left()).toBe(true);
    await clear();
  });

  it("finds a restore's staged rows and its load table", async () => {
    await app.database.db.execute(sql`insert into restore_staging (restore_id, collection, id, doc, create_time, update_time)
      values ('gone-restore', 'c', '1', '{}', now(), now())`);
    expect(await left()).toBe(true);
    await app.database.db.execute(sql`delete from restore_staging`);
    expect(await left()).toBe(false);
    const partitions = new DocumentPartitions(app.database.background, 1);
    await partitions.createLoad('gone-restore', project);
    expect(await left()).toBe(true);
    await partitions.dropLoad('gone-restore');
    expect(await left()).toBe(false);
  });

  it('finds a restore that committed before its task failed as stopped, not one that did not commit', async () => {
    await task('restore', BACKUP_TASK_IMPORT, 'failed', 'a-dead-process');
    expect(await left()).toBe(false);
    await restoreRecord('record', 'restore');
    expect(await left()).toBe(true);
    await clear();
  });

  it("finds a failed install's project, not once the project is gone or its restore committed", async () => {
    await task('install', TEMPLATE_TASK_INSTALL, 'failed', 'a-dead-process', { projectId: project });
    expect(await left()).toBe(true);
    await restoreRecord('installed', 'install');
    expect(await left()).toBe(false);
    await clear();
    await task('install', TEMPLATE_TASK_INSTALL, 'failed', 'a-dead-process', { projectId: 'no-such-project' });
    expect(await left()).toBe(false);
    await clear();
  });
});
