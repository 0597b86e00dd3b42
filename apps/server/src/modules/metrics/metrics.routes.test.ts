import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adminWithLicence, createProject, createTenant } from '../../test/fixtures.js';
import { createTestApp, ENGINE, type TestApp } from '../../test/test-app.js';
import { call, closeWorlds, DB, job, openWorld, restore, worlds } from '../db-backups/db-backup.fixtures.js';
import { type FtpStorage, FtpStorageError } from '../ftp/ftp-storage.js';
import { taskType } from '../tasks/task.engine.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const PROMTOOL = '/usr/bin/promtool';

/** `promtool check metrics` on `text` (its standard input): exit code and what it said. */
function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += String(chunk);
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

const scrape = (t: TestApp, authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one sample line (`name{labels} value`), undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe(`GET /metrics, off by default (${ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 with GANTRY_METRICS_TOKEN unset, whatever the token', async () => {
    expect((await scrape(t)).statusCode).toBe(404);
    expect((await scrape(t, `Bearer ${TOKEN}`)).statusCode).toBe(404);
  });
});

describe(`GET /metrics with GANTRY_METRICS_TOKEN (${ENGINE})`, () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp({ GANTRY_METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' }, { logStream: stream });
  });
  afterAll(() => t.close());

  it('refuses a scrape without the token or with another one (401), and never logs the token', async () => {
    for (const authorization of [
      undefined,
      TOKEN,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${TOKEN}`,
      'Bearer ',
    ]) {
      const refused = await scrape(t, authorization);
      expect(refused.statusCode, String(authorization)).toBe(401);
      expect(refused.headers['www-authenticate']).toContain('Bearer');
      expect(refused.json()).toMatchObject({ code: 'unauthorized' });
    }
    expect((await scrape(t, `Bearer ${TOKEN}`)).statusCode).toBe(200);
    expect((await scrape(t, `bearer ${TOKEN}`)).statusCode).toBe(200);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(TOKEN.slice(0, 20));
  });

  it('answers every family in the Prometheus text format, which promtool accepts', async () => {
    const admin = await adminWithLicence(t);
    await createTenant(t, admin, 'tenant1');
    await createProject(t, admin);
    await t.call('GET', '/portal/rest/spm/nothing-here');
    // A task of its own type, run by the engine: its end is counted by type and status.
    const done = taskType('test.metrics', z.object({}));
    t.services.tasks.register(done, async () => 'done');
    await t.services.tasks.submit(done, { projectId: null, requester: 'system', params: {} });
    let text = '';
    for (let i = 0; i < 100; i++) {
      const answer = await scrape(t, `Bearer ${TOKEN}`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      text = answer.body;
      if (sample(text, 'gantry_tasks_finished_total{type="test.metrics",status="success"}') === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const family of [
      'gantry_http_requests_total',
      'gantry_http_request_duration_seconds',
      'gantry_tasks_finished_total',
      'gantry_task_duration_seconds',
      'gantry_tasks_queued',
      'gantry_tasks_running',
      'gantry_backup_bytes_total',
      'gantry_backup_duration_seconds',
      'gantry_restore_bytes_total',
      'gantry_restore_duration_seconds',
      'gantry_database_pool_connections',
      'gantry_database_pool_waiting_clients',
      'gantry_database_statement_timeouts_total',
      'gantry_embedded_engine_restarts_total',
      'gantry_embedded_engine_statement_timeouts_total',
      'gantry_sessions',
      'gantry_tenants',
      'gantry_projects',
      'gantry_licence_remaining_seconds',
      'gantry_ftp_failures_total',
      'process_cpu_seconds_total',
    ]) {
      expect(text, family).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
    }
    expect(sample(text, 'gantry_tasks_finished_total{type="test.metrics",status="success"}')).toBe(1);
    expect(sample(text, 'gantry_task_duration_seconds_count{type="test.metrics",status="success"}')).toBe(1);
    expect(sample(text, 'gantry_sessions')).toBe(1);
    expect(sample(text, 'gantry_tenants{status="enabled"}')).toBe(1);
    expect(sample(text, 'gantry_projects{status="enabled"}')).toBe(1);
    expect(sample(text, 'gantry_licence_remaining_seconds')).toBe(365 * 86_400);
    // Routes by their pattern; a path no route has, by one fixed label.
    expect(
      sample(text, 'gantry_http_requests_total{method="POST",route="/portal/rest/spm/project",status="200"}'),
    ).toBe(1);
    expect(sample(text, 'gantry_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(text).not.toContain('nothing-here');

    const checked = await promtoolCheck(text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });
});

/** An FTP server that refuses every connection (the storage's failures are what is counted). */
const refusingFtp: FtpStorage = {
  enabled: async () => true,
  list: async () => {
    throw new FtpStorageError('refused', 'connection refused');
  },
  push: async () => {
    throw new FtpStorageError('refused', 'connection refused');
  },
  pushText: async () => {
    throw new FtpStorageError('refused', 'connection refused');
  },
  fetch: async () => {
    throw new FtpStorageError('refused', 'connection refused');
  },
  fetchText: async () => {
    throw new FtpStorageError('refused', 'connection refused');
  },
  remove: async () => undefined,
};

describe(`metrics of database backups, restores and FTP failures (${ENGINE})`, () => {
  afterAll(() => closeWorlds());

  it('counts a dump and a restore (bytes, times, task ends) and the failed FTP push', async () => {
    worlds.current = await openWorld({ ftpStorage: refusingFtp }, { GANTRY_METRICS_TOKEN: TOKEN });
    const t = worlds.current.app;
    // The dump is kept locally whatever the FTP server does; its failed push is counted.
    const started = await call('POST', `${DB}/dump`, {
      body: { name: 'pushed', item: { fileServer: true, html: true, database: true }, excludedDirs: [] },
    });
    expect(started.statusCode, started.body).toBe(200);
    const { id } = started.json<{ id: string }>();
    const pushed = await job(id);
    expect(pushed.status, pushed.log).toBe('success');
    const restored = await restore(id, { fileServer: true, html: true, database: true });
    expect(restored.status, restored.log).toBe('success');
    const text = (await scrape(t, `Bearer ${TOKEN}`)).body;
    expect(sample(text, 'gantry_backup_duration_seconds_count{kind="database"}')).toBe(1);
    expect(sample(text, 'gantry_backup_bytes_total{kind="database"}')).toBeGreaterThan(0);
    expect(sample(text, 'gantry_restore_duration_seconds_count{kind="database"}')).toBe(1);
    expect(sample(text, 'gantry_restore_bytes_total{kind="database"}')).toBeGreaterThan(0);
    expect(sample(text, 'gantry_ftp_failures_total{operation="push",failure="refused"}')).toBe(1);
    expect(text).toMatch(/^gantry_tasks_finished_total\{type="[^"]+",status="success"\} [1-9]/m);
    const checked = await promtoolCheck(text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });
});
