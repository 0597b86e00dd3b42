import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, type TestApp } from '../test/test-app.js';
import { COMPRESS_THRESHOLD } from './compression.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const get = (app: TestApp, url: string, acceptEncoding?: string) =>
  app.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe(`compression of API answers (${ENGINE})`, () => {
  it('compresses a large answer with brotli or gzip, as the caller accepts', async () => {
    t = await createTestApp();
    const plain = await get(t, '/portal/rest/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);

    const br = await get(t, '/portal/rest/openapi.json', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await get(t, '/portal/rest/openapi.json', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('sends a small answer as it is, and anything to a caller that does not ask', async () => {
    t = await createTestApp();
    const small = await get(t, '/portal/rest/spm/setting', 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toHaveProperty('name');
    expect((await get(t, '/healthz', 'br')).headers['content-encoding']).toBeUndefined();
    expect((await get(t, '/portal/rest/openapi.json', 'identity')).headers['content-encoding']).toBeUndefined();
  });

  it('does not decompress request bodies', async () => {
    t = await createTestApp();
    const response = await t.app.inject({
      method: 'POST',
      url: '/portal/rest/spm/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
      payload: brotliCompressSync(JSON.stringify({ username: 'admin', password: 'x'.repeat(64) })),
    });
    expect(response.statusCode).toBe(400);
  });
});

describe(`the console files (${ENGINE})`, () => {
  it('sends the precompressed variant the caller accepts, and images as they are', async () => {
    const probe = await createTestApp();
    const dir = path.join(probe.dataDir, 'console');
    await probe.close();
    await mkdir(path.join(dir, 'assets'), { recursive: true });
    const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    // Marked so the test can tell the file written at build time from one compressed on the fly.
    const prebuilt = brotliCompressSync(`${js}// prebuilt`);
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Gantry</title>');
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), js);
    await writeFile(path.join(dir, 'assets', 'index-abc123.js.br'), prebuilt);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(4000)]);
    await writeFile(path.join(dir, 'assets', 'logo-abc123.png'), png);
    t = await createTestApp({ GANTRY_CONSOLE_DIR: dir });

    const br = await get(t, '/portal/assets/index-abc123.js', 'gzip, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.equals(prebuilt)).toBe(true);

    const plain = await get(t, '/portal/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);

    const image = await get(t, '/portal/assets/logo-abc123.png', 'br, gzip');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.rawPayload.equals(png)).toBe(true);
  });
});
