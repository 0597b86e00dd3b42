import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Every route that takes a file (multipart/form-data) answers a broken body with 400 and a message
 * saying so: never a server error. A new file route joins FILE_ROUTES.
 */
const FILE_ROUTES = [
  '/portal/rest/spm/resource/img',
  '/portal/rest/spm/project/cert',
  '/portal/rest/license/verify',
  '/portal/rest/license/upload',
];

let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await createTestApp();
  await app.registerAdmin();
  admin = await app.login();
});
afterAll(() => app.close());

const head = (boundary: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\nplant1\r\n` +
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.key"\r\nContent-Type: application/octet-stream\r\n\r\n-----BEGIN`;

const BROKEN: Array<[string, string, string]> = [
  ['truncated body', 'multipart/form-data; boundary=xyz', head('xyz')],
  ['missing boundary', 'multipart/form-data', `${head('xyz')}\r\n--xyz--\r\n`],
  ['not a form', 'multipart/form-data; boundary=xyz', 'hello'],
];
/** Forms the parser reads as holding no file: 400, each route's own "no file" answer. */
const EMPTY: Array<[string, string, string]> = [
  ['empty boundary', 'multipart/form-data; boundary=', `${head('xyz')}\r\n--xyz--\r\n`],
  ['broken part headers', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition\r\n\r\nx\r\n--xyz--\r\n'],
];

/** A POST of `payload` as it is, under the content type `type`, as the administrator. */
const postRaw = (url: string, type: string, payload: string) =>
  app.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${admin}`, 'content-type': type, 'accept-language': 'en' },
    payload,
  });

describe('malformed multipart', () => {
  it.each(BROKEN)('answers 400 on every file route: %s', async (_name, type, payload) => {
    for (const url of FILE_ROUTES) {
      const response = await postRaw(url, type, payload);
      expect([response.statusCode, response.json().code], url).toEqual([400, 'validation']);
      expect(response.json().message, url).toMatch(/multipart\/form-data/);
    }
  });

  it.each(EMPTY)('answers 400 on every file route: %s', async (_name, type, payload) => {
    for (const url of FILE_ROUTES) {
      const response = await postRaw(url, type, payload);
      expect(response.statusCode, url).toBe(400);
      expect(['noFile', 'certificatesRequired', 'validation'], url).toContain(response.json().code);
    }
  });
});
