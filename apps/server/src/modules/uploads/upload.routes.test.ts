import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, multipartFile, type TestApp, TINY_PNG } from '../../test/test-app.js';

const URL = '/portal/rest/spm/resource/img';
let t: TestApp;
let token: string;

beforeEach(async () => {
  t = await createTestApp();
  await t.registerAdmin();
  token = await t.login();
});
afterEach(async () => {
  await t.close();
});

const upload = (name: string, content: Uint8Array, type: string, auth = token) => {
  const { payload, headers } = multipartFile('file', name, content, type);
  return t.app.inject({ method: 'POST', url: URL, payload, headers: { ...headers, authorization: `Bearer ${auth}` } });
};

describe(`image upload (${ENGINE})`, () => {
  it('stores an image and serves it back', async () => {
    const response = await upload('logo.png', TINY_PNG, 'image/png');
    expect(response.statusCode).toBe(200);
    const { url } = response.json<{ url: string }>();
    expect(url).toMatch(/^\/portal\/rest\/spm\/resource\/img\/[0-9a-f]{64}\.png$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
    // The URL is accepted as a setting.
    const saved = await t.call('PATCH', '/portal/rest/spm/setting', token, { logo: url });
    expect(saved.json()).toMatchObject({ logo: url });
  });

  it('judges by content, not by name or declared type', async () => {
    const fake = await upload('logo.png', Buffer.from('<html>not an image</html>'), 'image/png');
    expect(fake.statusCode).toBe(415);
    expect(fake.json()).toMatchObject({ code: 'notImage' });
    const svg = await upload(
      'logo.svg',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
      'image/svg+xml',
    );
    expect(svg.statusCode).toBe(415);
    const renamedPng = await upload('photo.txt', TINY_PNG, 'text/plain');
    expect(renamedPng.statusCode).toBe(200);
  });

  it('refuses callers who are not signed in, and requests without a file', async () => {
    expect((await upload('logo.png', TINY_PNG, 'image/png', 'nope')).statusCode).toBe(401);
    const empty = await t.call('POST', URL, token, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'noFile' });
  });

  it('serves only names it made', async () => {
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'x.png', `${'a'.repeat(64)}.png`]) {
      const response = await t.app.inject({ method: 'GET', url: `${URL}/${name}` });
      expect([400, 404]).toContain(response.statusCode);
    }
  });
});

describe(`upload edge cases (${ENGINE})`, () => {
  it('stores the same image uploaded several times at once', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => upload('logo.png', TINY_PNG, 'image/png')));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.json<{ url: string }>().url)).size).toBe(1);
  });

  it('says "one file at a time" for two files', async () => {
    const boundary = '----gantrytwo';
    const part = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`;
    const payload = Buffer.concat([
      Buffer.from(part('a.png')),
      TINY_PNG,
      Buffer.from('\r\n'),
      Buffer.from(part('b.png')),
      TINY_PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: URL,
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'oneFile', message: '一次只能上传一个文件' });
  });
});
