import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectDocuments } from '../../db/schema.js';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import { retentionTask } from './retention.service.js';

let app: TestApp;
let admin: string;
let acme: string;
let project: string;

beforeEach(async () => {
  [app, admin, acme] = await appWithTenants(['acme']);
  project = (await createProject(app, acme, { id: 'plant1' })).id;
  await app.app.ready();
});
afterEach(() => app.close());

const DAY = 86_400_000;

async function records(count: number, prefix: string, at: Date, collection = 'data_record') {
  const rows = Array.from({ length: count }, (_, i) => ({
    projectId: project,
    collection,
    id: `${prefix}${i}`,
    doc: { value: i, tag: 'sensor-1' },
    createTime: at,
    updateTime: at,
  }));
  for (let start = 0; start < rows.length; start += 500) {
    await app.database.db.insert(projectDocuments).values(rows.slice(start, start + 500));
  }
}

const stats = async () =>
  (await app.call('GET', `${SPM_URL}/project/${project}/data-stats`, acme)).json() as {
    collections: Array<{ collection: string; documents: number }>;
  };

describe('time-series retention', () => {
  it('deletes data records older than the policy in batches, keeps newer ones and other collections, and says what it did', async () => {
    const now = Date.now();
    // Policy: 1 month = 30 days.
    const saved = await app.call('PATCH', `${SPM_URL}/setting`, admin, { retentionPolicy: { count: 1, unit: 'M' } });
    expect(saved.statusCode).toBe(200);
    await records(2_345, 'old', new Date(now - 40 * DAY));
    await records(3, 'new', new Date(now - 20 * DAY));
    await records(5, 'cfg', new Date(now - 400 * DAY), 'setting');

    expect((await app.call('GET', `${SPM_URL}/setting/bbs_realtime/last-run`, admin)).json()).toEqual({ task: null });
    expect((await app.call('POST', `${SPM_URL}/setting/bbs_realtime/run`, acme)).statusCode).toBe(403);
    const run = await app.call('POST', `${SPM_URL}/setting/bbs_realtime/run`, admin);
    expect(run.statusCode).toBe(200);
    expect(run.json()).toMatchObject({ type: 'data.retention', status: 'ongoing', projectId: null });

    await expect
      .poll(async () => (await app.call('GET', `${SPM_URL}/setting/bbs_realtime/last-run`, admin)).json().task.status, {
        timeout: 30_000,
        interval: 200,
      })
      .not.toBe('ongoing');
    const last = (await app.call('GET', `${SPM_URL}/setting/bbs_realtime/last-run`, admin)).json().task;
    expect(last.status, last.message).toBe('success');
    // The result in the language of the caller who ran it (issue 32: no English in the Chinese console).
    expect(last.message).toMatch(/^已删除 \S+ 之前存储的 2345 条数据记录$/);
    expect(last.progress).toBe(1);
    const left = (await stats()).collections.map((row) => [row.collection, row.documents]);
    expect(left).toEqual([
      ['data_record', 3],
      ['setting', 5],
    ]);

    app.advance(1_000);
    const asEnglish = { authorization: `Bearer ${admin}`, 'accept-language': 'en' };
    const again = await app.app.inject({
      method: 'POST',
      url: `${SPM_URL}/setting/bbs_realtime/run`,
      headers: asEnglish,
    });
    expect(again.statusCode).toBe(200);
    await expect
      .poll(
        async () => {
          const url = `${SPM_URL}/setting/bbs_realtime/last-run`;
          const task = (await app.app.inject({ method: 'GET', url, headers: asEnglish })).json().task;
          return task.status === 'success' ? task.message : task.status;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toMatch(/^Removed 0 data records stored before /);
  }, 90_000);

  it('a task named after its hour is queued once, however often it is submitted', async () => {
    const { tasks } = app.services;
    const hour = new Date().toISOString().slice(0, 13).replace(/[-T]/g, '');
    const once = await tasks.submitOnce(retentionTask, {
      id: `retention-${hour}`,
      projectId: null,
      requester: 'system',
      params: {},
    });
    const twice = await tasks.submitOnce(retentionTask, {
      id: `retention-${hour}`,
      projectId: null,
      requester: 'system',
      params: {},
    });
    expect(once?.id).toBe(`retention-${hour}`);
    expect(twice).toBeUndefined();
  });
});
