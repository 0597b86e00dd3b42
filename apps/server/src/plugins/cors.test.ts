import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, type TestApp } from '../test/test-app.js';
import { PROJECT_HEADER } from './project-gate.js';

/**
 * The answers @fastify/cors gave with the server's options (pinned from it before it was replaced by
 * plugins/cors.ts), with enableCors off and on.
 */
let t: TestApp;
let token: string;
const SETTING = '/portal/rest/spm/setting';
const foreign = 'http://other.example:8080';
const EXPOSED = 'count, count-estimated, next-cursor, Content-Disposition, ftp-configured';

beforeAll(async () => {
  t = await createTestApp();
  await t.registerAdmin();
  token = await t.login();
});
afterAll(() => t.close());

const options = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'OPTIONS', url, headers });
const preflightHeaders = { origin: foreign, 'access-control-request-method': 'PUT' };

describe(`cross-origin answers (${ENGINE})`, () => {
  it('with CORS off: Vary on every answer, nothing else; a preflight is not found', async () => {
    await t.call('PATCH', SETTING, token, { enableCors: false });
    for (const headers of [{}, { origin: foreign }]) {
      const answer = await t.app.inject({ method: 'GET', url: SETTING, headers });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers.vary).toBe('Origin');
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
    for (const headers of [preflightHeaders, { origin: foreign }, {}] as Record<string, string>[]) {
      const answer = await options(SETTING, headers);
      expect(answer.statusCode).toBe(404);
      expect(answer.headers.vary).toBe('Origin');
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('with CORS on: the origin reflected, preflights answered at once, no Origin no change', async () => {
    await t.call('PATCH', SETTING, token, { enableCors: true });
    try {
      const plain = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(plain.headers.vary).toBe('Origin');
      expect(plain.headers['access-control-allow-origin']).toBeUndefined();

      const cross = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: foreign } });
      expect(cross.statusCode).toBe(200);
      expect(cross.headers).toMatchObject({
        vary: 'Origin',
        'access-control-allow-origin': foreign,
        'access-control-expose-headers': EXPOSED,
      });
      expect(cross.headers['access-control-allow-methods']).toBeUndefined();

      // On any address, known or not.
      for (const url of [SETTING, '/nothing-here']) {
        const preflight = await options(url, preflightHeaders);
        expect(preflight.statusCode).toBe(204);
        expect(preflight.body).toBe('');
        expect(preflight.headers).toMatchObject({
          vary: 'Origin',
          'content-length': '0',
          'access-control-allow-origin': foreign,
          'access-control-expose-headers': EXPOSED,
          'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
          'access-control-allow-headers': `Authorization, Content-Type, Accept-Language, ${PROJECT_HEADER}`,
          'access-control-max-age': '600',
        });
      }

      const incomplete = await options(SETTING, { origin: foreign });
      expect(incomplete.statusCode).toBe(400);
      expect(incomplete.body).toBe('Invalid Preflight Request');
      expect(incomplete.headers['content-type']).toMatch(/^text\/plain/);
      expect(incomplete.headers['access-control-allow-origin']).toBe(foreign);

      expect((await options(SETTING, {})).statusCode).toBe(404);
    } finally {
      await t.call('PATCH', SETTING, token, { enableCors: false });
    }
  });
});
