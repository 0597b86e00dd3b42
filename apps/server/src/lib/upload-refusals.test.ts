import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWithLicence, createProject, createTenant, SPM_URL, TENANT_PASSWORD } from '../test/fixtures.js';
import { KeepAliveClient } from '../test/keep-alive-client.js';
import { createTestApp, multipartFile, type TestApp } from '../test/test-app.js';

let app: TestApp;
let port: number;
let admin: string;
let acme: string;
const project = 'plant1';
const MEDIA = `${SPM_URL}/proxy/core/mediaLibrary`;

beforeAll(async () => {
  app = await createTestApp();
  admin = await adminWithLicence(app);
  await createTenant(app, admin, 'acme');
  acme = await app.login('acme', TENANT_PASSWORD);
  await createProject(app, acme, { id: project });
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  // A connection a failed case left hanging must not hold the close up.
  app.app.server.closeAllConnections();
  await app.close();
});

describe('early upload refusals', () => {
  it('a media upload refused for its name (409) leaves the connection answering', async () => {
    const client = new KeepAliveClient(port);
    try {
      const form = multipartFile('file', 'taken.bin', randomBytes(300 * 1024), 'application/octet-stream');
      const headers = { ...form.headers, authorization: acme, 'x-request-project': project };
      const first = await client.send({ method: 'POST', path: `${MEDIA}/upload`, headers, body: form.payload });
      expect(first.status).toBe(200);
      const refused = await client.send({ method: 'POST', path: `${MEDIA}/upload`, headers, body: form.payload });
      expect(refused.status).toBe(409);
      for (let i = 0; i < 3; i++) {
        const next = await client.send({ method: 'GET', path: '/healthz' });
        expect(next.status).toBe(200);
        if (refused.headers.connection !== 'close') expect(next.socket).toBe(refused.socket);
      }
    } finally {
      client.close();
    }
  });
});
