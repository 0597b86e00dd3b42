import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe(`health and the API document (${ENGINE})`, () => {
  it('answers liveness and readiness', async () => {
    expect((await t.call('GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.call('GET', '/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('publishes an OpenAPI 3 document generated from the route schemas', async () => {
    const doc = (await t.call('GET', '/portal/rest/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ['/portal/rest/spm/login', '/portal/rest/spm/setting', '/portal/rest/spm/admin/register']) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect(
      doc.paths['/portal/rest/spm/login'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('password');
  });

  it('redirects / to the console and answers unknown API paths with the error body', async () => {
    const root = await t.call('GET', '/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/portal/');
    const missing = await t.call('GET', '/portal/rest/spm/nothing-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'notFound' });
  });
});

describe(`when the database is gone (${ENGINE})`, () => {
  it('is not ready, and a failing call answers 500 without its internals', async () => {
    await t.database.close();
    expect((await t.call('GET', '/readyz')).statusCode).toBe(503);
    const response = await t.call('GET', '/portal/rest/spm/admin/check');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: '服务器出错了', code: 'internal' });
  });
});

describe(`the console files (${ENGINE})`, () => {
  it('serves index.html uncached and hashed assets for a year', async () => {
    const dir = path.join(t.dataDir, 'console');
    await mkdir(path.join(dir, 'assets'), { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Gantry</title>');
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    const withConsole = await createTestApp({ GANTRY_CONSOLE_DIR: dir });
    try {
      const page = await withConsole.call('GET', '/portal/');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Gantry</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
      const asset = await withConsole.call('GET', '/portal/assets/index-abc123.js');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    } finally {
      await withConsole.close();
    }
  });
});
