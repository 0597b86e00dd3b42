/**
 * The project gate's start-up rule: a route under a project prefix that does not say what it needs of
 * its project stops the server at start, as a route without `config.action` does. (What the gate
 * answers on every project-scoped route: the generated matrix in policy/isolation.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adminWithLicence, grant, projectBody, SPM_URL } from '../test/fixtures.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { PROJECT_PREFIXES } from './project-gate.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close().catch(() => undefined);
  app = undefined;
});

describe('project gate at start', () => {
  it('refuses to start with a route under a project prefix that declares no project', async () => {
    app = await createTestApp();
    const built = app.app;
    const start = async () => {
      built.get(
        '/portal/rest/core/:collection/forgotten',
        { config: { action: 'project.data.read' } },
        async () => ({}),
      );
      await built.ready();
    };
    await expect(start()).rejects.toThrow(
      'Route GET /portal/rest/core/:collection/forgotten is under a project prefix and declares no config.project',
    );
  });

  it.each(PROJECT_PREFIXES.map((prefix) => [prefix] as const))(
    'refuses an undeclared route under %s',
    async (prefix) => {
      app = await createTestApp();
      const built = app.app;
      const url = `${prefix.replace(/:$/, ':collection')}${prefix.endsWith('/') || prefix.endsWith(':') ? '' : '/'}x-forgotten`;
      const start = async () => {
        built.post(url, { config: { action: 'project.data.write' } }, async () => ({}));
        await built.ready();
      };
      await expect(start()).rejects.toThrow('declares no config.project');
    },
  );

  it('refuses a project route whose action needs no session (the gate needs the caller)', async () => {
    app = await createTestApp();
    const built = app.app;
    const start = async () => {
      built.get(
        '/portal/rest/core/:collection/open',
        { config: { action: 'public', project: 'read' } },
        async () => ({}),
      );
      await built.ready();
    };
    await expect(start()).rejects.toThrow('declares a project but no action that needs a session');
  });

  it('starts with the declaration, and the route then sees the project the gate resolved', async () => {
    app = await createTestApp();
    const built = app.app;
    built.get(
      '/portal/rest/core/:collection/declared',
      { config: { action: 'project.data.read', project: 'read' } },
      async (request) => ({ project: request.project?.id ?? null }),
    );
    const admin = await adminWithLicence(app);
    expect(
      (await app.call('POST', `${SPM_URL}/project`, admin, projectBody(app, { id: 'gp', grant: grant(app) })))
        .statusCode,
    ).toBe(200);
    expect(app.projectGate.routes.some((route) => route.url === '/portal/rest/core/:collection/declared')).toBe(true);
    const url = '/portal/rest/core/dashboard/declared';
    const seen = (projectId?: string) =>
      app?.app.inject({
        url,
        headers: { authorization: `Bearer ${admin}`, ...(projectId ? { 'x-request-project': projectId } : {}) },
      });
    expect((await seen('gp'))?.json()).toEqual({ project: 'gp' });
    expect((await seen('nosuch'))?.json().code).toBe('notFound');
    expect((await seen())?.json().code).toBe('projectHeaderMissing');
    expect((await app.app.inject({ url, headers: { 'x-request-project': 'gp' } })).statusCode).toBe(401);
    // An id too long to be one is never looked up; where the project is optional it is still no project.
    const tasks = await app.app.inject({
      url: `${SPM_URL}/proxy/core/taskmanager`,
      headers: { authorization: `Bearer ${admin}`, 'x-request-project': 'x'.repeat(65) },
    });
    expect(tasks.statusCode, tasks.body).toBe(404);
    const data = await seen('x'.repeat(65));
    expect(data?.statusCode, data?.body).toBe(404);
  });
});
