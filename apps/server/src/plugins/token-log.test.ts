import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipartFile, type TestApp } from '../test/test-app.js';

/**
 * The real server's request log, captured: a token never reaches it, however the parameter that
 * carries it is spelled, on any route (download link, ordinary read, unknown path, sign-in, upload).
 */
let app: TestApp;
let token: string;
const lines: string[] = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
  await app.registerAdmin();
  token = await app.login();
});
afterAll(() => app.close());

const SPELLINGS = [
  'token',
  'TOKEN',
  'Token',
  'token%00',
  '%00token',
  'to%6ben',
  'to%6Ben',
  '%74oken',
  '%2574oken',
  'token[]',
  'token%5B%5D',
  ' token',
  'to+ken',
  '%EF%BD%94%EF%BD%8F%EF%BD%8B%EF%BD%85%EF%BD%8E',
  'access_token',
  'X-Token',
];
const PATHS = [
  '/portal/rest/core/license/machineInfo/export',
  '/portal/rest/spm/login/current/user',
  '/portal/rest/spm/nowhere',
  '/portal/rest/spm/setting',
];

describe('the request log', () => {
  it('never holds a token, whatever the spelling of its parameter', async () => {
    const secret = token;
    const encoded = encodeURIComponent(secret);
    for (const path of PATHS) {
      for (const name of SPELLINGS) {
        await app.app.inject({ method: 'GET', url: `${path}?page=2&${name}=${encoded}&x=1` });
        // Value first, then another parameter with the same spelling but no value.
        await app.app.inject({ method: 'GET', url: `${path}?${name}=${encoded}&${name}` });
      }
    }
    await app.app.inject({
      method: 'POST',
      url: `/portal/rest/spm/login?TOKEN=${encoded}`,
      payload: { username: 'admin', password: 'x' },
    });
    const upload = multipartFile('file', 'a.png', Buffer.from('not an image'), 'image/png');
    await app.app.inject({
      method: 'POST',
      url: `/portal/rest/spm/resource/img?token%00=${encoded}`,
      headers: { ...upload.headers, authorization: `Bearer ${secret}` },
      payload: upload.payload,
    });
    await new Promise((resolve) => setImmediate(resolve));
    const log = lines.join('');
    // The requests were logged (one line each), with the parameter names kept and the values gone.
    const requests = lines.map((line) => JSON.parse(line) as { msg?: string; url?: string }).filter((l) => l.url);
    expect(requests.length).toBeGreaterThanOrEqual(PATHS.length * SPELLINGS.length * 2);
    expect(log).toContain('token%00=[REDACTED]');
    expect(log).toContain('to%6ben=[REDACTED]');
    expect(log).toContain('TOKEN=[REDACTED]');
    expect(log).toContain('page=2');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(encoded);
    expect(log).not.toContain(secret.slice(0, 16));
  });
});
