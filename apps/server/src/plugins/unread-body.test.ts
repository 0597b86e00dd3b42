import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPM_URL } from '../test/fixtures.js';
import { KeepAliveClient, type KeptAnswer } from '../test/keep-alive-client.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { DRAIN_MAX_BYTES, DRAIN_MAX_MS } from './unread-body.js';

/**
 * Answers given before their request's body was read, beyond the upload routes (whose refusals are
 * lib/upload-refusals.test.ts): the connection goes on, or is closed cleanly within the bounds.
 */

let app: TestApp;
let port: number;

beforeAll(async () => {
  app = await createTestApp();
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  app.app.server.closeAllConnections();
  await app.close();
});

async function answered(client: KeepAliveClient, refused: KeptAnswer, sameSocket: boolean): Promise<void> {
  expect(refused.headers.connection === 'close').toBe(!sameSocket);
  for (let i = 0; i < 3; i++) {
    const next = await client.send({ method: 'GET', path: '/healthz' });
    expect(next.status).toBe(200);
    if (sameSocket) expect(next.socket).toBe(refused.socket);
    else expect(next.socket).toBeGreaterThan(refused.socket);
  }
}

const octets = { 'content-type': 'application/octet-stream' };
const form = { 'content-type': 'multipart/form-data; boundary=x' };

describe('an answer before the body is read', () => {
  it('an unknown route (404) with a body: the connection goes on', async () => {
    const client = new KeepAliveClient(port);
    try {
      const refused = await client.send({
        method: 'POST',
        path: '/nowhere',
        headers: octets,
        body: randomBytes(300_000),
      });
      expect(refused.status).toBe(404);
      await answered(client, refused, true);
    } finally {
      client.close();
    }
  });

  // Fastify closes the connection after any body its parsers refuse ("the client may send more"):
  // the body read and dropped first, the close is clean and the next requests go on a new one.
  it('a JSON body past the body limit (413): closed cleanly, the next requests answered', async () => {
    const client = new KeepAliveClient(port);
    try {
      const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(1536 * 1024) }));
      const refused = await client.send({
        method: 'POST',
        path: `${SPM_URL}/login`,
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(refused.status).toBe(413);
      await answered(client, refused, false);
    } finally {
      client.close();
    }
  });

  it('a refused body of unknown length past the bound: read up to it, answered with Connection: close', async () => {
    const client = new KeepAliveClient(port, 15_000);
    try {
      // Chunked (no Content-Length): 6 MiB in 64 KiB pieces, all sent although the answer comes at 4 MiB.
      const piece = 64 * 1024;
      const pieces = Array.from({ length: 96 }, () => randomBytes(piece));
      expect(pieces.length * piece).toBeGreaterThan(DRAIN_MAX_BYTES);
      const refused = await client.send({
        method: 'POST',
        path: `${SPM_URL}/resource/img`,
        headers: form,
        body: pieces,
      });
      expect(refused.status).toBe(401);
      await answered(client, refused, false);
    } finally {
      client.close();
    }
  });

  it('a client that stops sending its body: answered with Connection: close within the time bound', async () => {
    const client = new KeepAliveClient(port, DRAIN_MAX_MS + 5_000);
    try {
      const started = Date.now();
      const refused = await client.send({
        method: 'POST',
        path: `${SPM_URL}/resource/img`,
        headers: { ...form, 'content-length': String(1024 * 1024) },
        body: randomBytes(300_000),
      });
      expect(refused.status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(DRAIN_MAX_MS - 100);
      await answered(client, refused, false);
    } finally {
      client.close();
    }
  }, 20_000);
});
