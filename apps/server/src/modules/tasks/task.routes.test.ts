import { translate, WS_AUTH_FAILED } from '@gantry/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import { INTERNAL_FAILURE, SERVER_STOPPED, TaskEngine, TaskError, taskType } from './task.engine.js';
import { TaskRepository } from './task.repository.js';

/** Task types of these tests only: no parameters. */
const TEST_TASKS = {
  'test.gate': taskType('test.gate', z.object({})),
  'test.loop': taskType('test.loop', z.object({})),
  'test.fail': taskType('test.fail', z.object({})),
  'test.crash': taskType('test.crash', z.object({})),
};

let app: TestApp;
let admin: string;
let acme: string;
let other: string;
let project: string;
/** Tasks of type 'test.gate' wait here until a test opens their gate. */
let gates: Map<string, () => void>;

beforeEach(async () => {
  [app, admin, acme, other] = await appWithTenants(['acme', 'other']);
  project = (await createProject(app, acme, { id: 'plant1' })).id;
  gates = new Map();
  const { tasks } = app.services;
  tasks.register(TEST_TASKS['test.gate'], async (context) => {
    context.progress(0.5);
    await new Promise<void>((resolve) => gates.set(context.task.id, resolve));
    await context.checkpoint();
    return 'opened';
  });
  tasks.register(TEST_TASKS['test.loop'], async (context) => {
    for (let step = 1; ; step++) {
      context.progress(Math.min(0.99, step / 1000));
      context.log(`step ${step}`);
      await context.checkpoint();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  tasks.register(TEST_TASKS['test.fail'], async () => {
    throw new TaskError('the disk is full');
  });
  tasks.register(TEST_TASKS['test.crash'], async () => {
    throw new Error('relation "secret_table" does not exist');
  });
  await app.app.ready();
});
afterEach(async () => {
  for (const open of gates.values()) open();
  await app.close();
});

const submit = (type: keyof typeof TEST_TASKS, projectId: string | null = project, requester = 'acme') =>
  app.services.tasks.submit(TEST_TASKS[type], { projectId, requester, params: {} });
const taskmanager = (token: string, query: unknown = {}, projectId?: string) =>
  app.app.inject({
    method: 'GET',
    url: `${SPM_URL}/proxy/core/taskmanager?query=${encodeURIComponent(JSON.stringify(query))}`,
    headers: { authorization: `Bearer ${token}`, ...(projectId ? { 'x-request-project': projectId } : {}) },
  });
const statusOf = async (id: string) => (await app.call('GET', `${SPM_URL}/proxy/core/taskmanager/${id}`, admin)).json();
const until = (id: string, status: string) =>
  expect.poll(async () => (await statusOf(id)).status, { timeout: 15_000, interval: 100 }).toBe(status);

describe('task engine and task manager', () => {
  it('runs a task to success, showing its progress while it runs', async () => {
    const task = await submit('test.gate');
    await expect.poll(() => gates.has(task.id), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => (await statusOf(task.id)).progress, { timeout: 5_000 }).toBe(0.5);
    const listed = await taskmanager(
      acme,
      { filter: { status: 'ongoing', type: 'test.gate' }, sort: { startTime: -1 }, limit: 15 },
      project,
    );
    expect(listed.json().map((row: { id: string }) => row.id)).toEqual([task.id]);
    gates.get(task.id)?.();
    await until(task.id, 'success');
    expect(await statusOf(task.id)).toMatchObject({ progress: 1, message: 'opened' });
    expect((await statusOf(task.id)).endTime).not.toBeNull();
  });

  it("records a failure with its reason, hiding an unexpected error's details", async () => {
    const task = await submit('test.fail');
    await until(task.id, 'failed');
    expect((await statusOf(task.id)).message).toBe('the disk is full');
    // An unexpected error's details stay in the log.
    const crash = await submit('test.crash');
    await until(crash.id, 'failed');
    expect((await statusOf(crash.id)).message).toBe(translate(INTERNAL_FAILURE, 'zh_Hans'));
  });

  it('pauses a running task at its next safe point, and a waiting one at once', async () => {
    const running = await submit('test.loop');
    const second = await submit('test.gate');
    await expect.poll(() => gates.has(second.id), { timeout: 10_000 }).toBe(true);
    // Both slots (concurrency 2) are taken: the third waits.
    const waiting = await submit('test.gate');
    await until(running.id, 'ongoing');
    const paused = await app.call('PATCH', `${SPM_URL}/proxy/core/taskmanager/${waiting.id}`, acme, {
      status: 'pause',
      id: waiting.id,
    });
    expect(paused.json().status).toBe('pause');
    const pause = await app.call('PATCH', `${SPM_URL}/proxy/core/taskmanager/${running.id}`, acme, { status: 'pause' });
    expect(pause.statusCode).toBe(200);
    await until(running.id, 'pause');
    const stopped = await app.call('GET', `${SPM_URL}/proxy/core/taskmanager/${running.id}`, acme);
    expect(stopped.json().log).toMatch(/^step 1\n/);
    const again = await app.call('PATCH', `${SPM_URL}/proxy/core/taskmanager/${running.id}`, acme, { status: 'pause' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('taskEnded');
    const wrong = await app.call('PATCH', `${SPM_URL}/proxy/core/taskmanager/${second.id}`, acme, {
      status: 'succeed',
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('keeps tasks to whoever may see their project', async () => {
    const task = await submit('test.gate');
    const platform = await submit('test.gate', null, 'admin');
    expect((await taskmanager(other)).json()).toEqual([]);
    expect((await taskmanager(other, {}, project)).statusCode).toBe(404);
    expect((await app.call('GET', `${SPM_URL}/proxy/core/taskmanager/${task.id}`, other)).statusCode).toBe(404);
    expect(
      (await app.call('PATCH', `${SPM_URL}/proxy/core/taskmanager/${task.id}`, other, { status: 'pause' })).statusCode,
    ).toBe(404);
    expect((await taskmanager(acme)).json().map((row: { id: string }) => row.id)).toEqual([task.id]);
    const all = (await taskmanager(admin)).json().map((row: { id: string }) => row.id);
    expect(all.sort()).toEqual([task.id, platform.id].sort());
  });

  it('fails the tasks a stopped server left running, keeping how far they got', async () => {
    const repo = new TaskRepository(app.database.db);
    const now = new Date();
    await repo.insert({
      id: 'tleft',
      projectId: project,
      type: 'test.fail',
      status: 'ongoing',
      progress: 0.3,
      params: {},
      requester: 'acme',
      requestId: 'req1',
      message: null,
      log: '',
      pauseRequested: false,
      runner: 'r-of-a-dead-process',
      heartbeatAt: now,
      startTime: now,
      endTime: null,
      updatedAt: now,
    });
    const log = { warn: () => undefined, error: () => undefined };
    const restarted = new TaskEngine(repo, () => new Date(), {
      concurrency: 1,
      pollMs: 60_000,
      reportMs: 60_000,
      staleMs: 30_000,
      onlyProcess: true,
      log,
    });
    await restarted.start();
    await restarted.stop();
    const stopped = translate(SERVER_STOPPED, 'zh_Hans');
    expect(await statusOf('tleft')).toMatchObject({ status: 'failed', message: stopped, progress: 0.3 });
  });
});

describe('progress websocket', () => {
  const open = (query: string) => app.app.injectWS(`${SPM_URL}/proxy/ws/historycomputed?${query}`);

  it('answers a bad token with the message the console stops on, and closes', async () => {
    let texts: Promise<string> | undefined;
    let closed: Promise<number> | undefined;
    await app.app.injectWS(
      `${SPM_URL}/proxy/ws/historycomputed?token=not-a-token`,
      {},
      {
        // Listening from the start: the refusal may come before the socket is handed over.
        onInit: (socket) => {
          texts = new Promise((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString())));
          closed = new Promise((resolve) => socket.once('close', (code: number) => resolve(code)));
        },
      },
    );
    expect(await texts).toBe(WS_AUTH_FAILED);
    expect(await closed).toBe(4001);
  });

  it("sends a subscriber its own projects' progress, keyed by project and request id, at least once a second", async () => {
    const socket = await open(`token=${encodeURIComponent(acme)}`);
    const foreign = await open(`token=${encodeURIComponent(other)}`);
    const foreignMessages: string[] = [];
    foreign.on('message', (data: Buffer) => foreignMessages.push(data.toString()));
    socket.send(JSON.stringify({ name: 'historycomputed' }));
    const task = await submit('test.gate');
    const messages: Array<{
      name: string;
      data: Record<string, Record<string, { progress: number; status: string }>>;
    }> = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString())));
    await expect
      .poll(() => messages.some((m) => m.data[project]?.[task.requestId]?.progress === 0.5), { timeout: 10_000 })
      .toBe(true);
    const seen = messages.length;
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(messages.length - seen).toBeGreaterThanOrEqual(2);
    gates.get(task.id)?.();
    await expect
      .poll(() => messages.some((m) => m.data[project]?.[task.requestId]?.status === 'success'), { timeout: 10_000 })
      .toBe(true);
    expect(messages.every((m) => m.name === 'historycomputed')).toBe(true);
    expect(foreignMessages).toEqual([]);
    socket.terminate();
    foreign.terminate();
  });
});
