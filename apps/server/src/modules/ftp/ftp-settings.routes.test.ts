import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { adminWithLicence, createTenant, TENANT_PASSWORD } from '../../test/fixtures.js';
import { createTestApp, ENGINE, type TestApp } from '../../test/test-app.js';
import { FTP_TEST_PASSWORD, FTP_TEST_USER, startVsftpd, type Vsftpd } from '../../test/vsftpd.js';
import { SECRET_KEY_FILE, SecretBox } from './secret-box.js';

const URL = '/portal/rest/db-backup/ftp-settings';
let t: TestApp;
let token: string;
let ftp: Vsftpd;
const logLines: string[] = [];

beforeAll(async () => {
  ftp = await startVsftpd();
});
afterAll(async () => {
  await ftp.stop();
});
beforeEach(async () => {
  logLines.length = 0;
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
  token = await adminWithLicence(t);
});
afterEach(async () => {
  await t.close();
});

const settings = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  host: '127.0.0.1',
  port: ftp.port,
  user: FTP_TEST_USER,
  password: FTP_TEST_PASSWORD,
  remoteFolder: '/gantry',
  tls: 'none',
  allowUntrustedCertificate: false,
  ...overrides,
});

async function storedRow() {
  const [row] = await queryRows<{ password_encrypted: string | null; host: string; enabled: boolean }>(
    t.database.db,
    sql`select password_encrypted, host, enabled from ftp_settings`,
  );
  return row;
}

describe(`FTP settings (${ENGINE})`, () => {
  it('starts disabled with the defaults and no password', async () => {
    const response = await t.call('GET', URL, token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      enabled: false,
      host: '',
      port: 21,
      user: '',
      passwordSet: false,
      remoteFolder: '/gantry',
      tls: 'none',
      passive: true,
      allowUntrustedCertificate: false,
    });
  });

  it('saves the settings, never answers or logs the password, and stores it encrypted under the key file', async () => {
    const saved = await t.call('PUT', URL, token, settings());
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ enabled: true, host: '127.0.0.1', passwordSet: true, user: FTP_TEST_USER });
    expect(saved.body).not.toContain(FTP_TEST_PASSWORD);
    const read = await t.call('GET', URL, token);
    expect(read.json()).toMatchObject({ passwordSet: true, port: ftp.port });
    expect(read.body).not.toContain(FTP_TEST_PASSWORD);
    expect(read.json()).not.toHaveProperty('password');

    const row = await storedRow();
    expect(row?.password_encrypted).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(row?.password_encrypted).not.toContain(FTP_TEST_PASSWORD);
    expect(row?.password_encrypted).not.toContain(Buffer.from(FTP_TEST_PASSWORD).toString('base64'));
    // The key file: created once in the data directory, readable by the server's user only; it opens the row.
    const keyFile = path.join(t.dataDir, SECRET_KEY_FILE);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const box = SecretBox.of(Buffer.from((await readFile(keyFile, 'utf8')).trim(), 'base64'));
    expect(box.open(row?.password_encrypted ?? '', 'ftp_settings.password')).toBe(FTP_TEST_PASSWORD);
    // Under another key it does not open.
    expect(() => SecretBox.of(randomBytes(32)).open(row?.password_encrypted ?? '', 'ftp_settings.password')).toThrow();

    expect(logLines.join('')).not.toContain(FTP_TEST_PASSWORD);
    // The change is audited (what changed, never the password).
    const audit = await queryRows<{ action: string; object_type: string; detail: Record<string, unknown> }>(
      t.database.db,
      sql`select action, object_type, detail from audit_log where action = 'ftpSettings.update'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      object_type: 'settings',
      detail: { enabled: { from: false, to: true }, host: { from: '', to: '127.0.0.1' }, passwordChanged: true },
    });
    expect(JSON.stringify(audit)).not.toContain(FTP_TEST_PASSWORD);

    // The storage reads the saved settings and opens the password: a real round trip.
    const storage = t.services.ftpStorage;
    expect(await storage.enabled()).toBe(true);
    const local = path.join(t.dataDir, 'probe.bin');
    await writeFile(local, randomBytes(100_000));
    await storage.push(local, 'settings-test/probe.bin');
    expect(await storage.list('settings-test')).toEqual([
      { name: 'probe.bin', size: 100_000, modifiedAt: expect.any(Date) },
    ]);
    await storage.remove('settings-test/probe.bin');
  });

  it('keeps the stored password when none is sent, for the same server and user only', async () => {
    await t.call('PUT', URL, token, settings());
    const before = (await storedRow())?.password_encrypted;
    const { password: _omitted, ...withoutPassword } = settings({ remoteFolder: '/other' });
    const kept = await t.call('PUT', URL, token, withoutPassword);
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ passwordSet: true, remoteFolder: '/other' });
    expect((await storedRow())?.password_encrypted).toBe(before);
    // Another server without a password: the stored one is not sent there.
    const moved = await t.call('PUT', URL, token, { ...withoutPassword, host: 'ftp.example.org' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ code: 'validation', fields: { password: expect.any(String) } });
    expect((await storedRow())?.host).toBe('127.0.0.1');
    // Disabled, the password may be left out (and is dropped with the old server).
    const disabled = await t.call('PUT', URL, token, { ...withoutPassword, host: 'ftp.example.org', enabled: false });
    expect(disabled.json()).toMatchObject({ enabled: false, passwordSet: false });
    expect(await t.services.ftpStorage.enabled()).toBe(false);
  });

  it('refuses what is not valid, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [settings({ password: undefined }), 'password'],
      [settings({ host: '' }), 'host'],
      [settings({ host: 'bad host;rm' }), 'host'],
      [settings({ user: '' }), 'user'],
      [settings({ user: 'a\r\nDELE x' }), 'user'],
      [settings({ port: 0 }), 'port'],
      [settings({ port: 70000 }), 'port'],
      [settings({ remoteFolder: 'relative' }), 'remoteFolder'],
      [settings({ remoteFolder: '/a/../etc' }), 'remoteFolder'],
      [settings({ remoteFolder: '/a\\b' }), 'remoteFolder'],
      [settings({ tls: 'ssl3' }), 'tls'],
      [settings({ passive: false }), 'passive'],
      [settings({ password: 'x'.repeat(257) }), 'password'],
    ];
    for (const [body, field] of cases) {
      const response = await t.call('PUT', URL, token, body);
      expect({ field, status: response.statusCode }).toEqual({ field, status: 400 });
      expect(Object.keys(response.json<{ fields?: object }>().fields ?? {})).toContain(field);
    }
    expect(await storedRow()).toBeUndefined();
  });

  it('is for the administrator only', async () => {
    await createTenant(t, token, 'tenant1');
    const tenant = await t.login('tenant1', TENANT_PASSWORD);
    expect((await t.call('GET', URL, tenant)).statusCode).toBe(403);
    expect((await t.call('PUT', URL, tenant, settings())).statusCode).toBe(403);
    expect((await t.call('POST', `${URL}/test`, tenant, settings())).statusCode).toBe(403);
    expect((await t.call('GET', URL)).statusCode).toBe(401);
    expect(await storedRow()).toBeUndefined();
  });

  it("tests a connection and says exactly what failed, in the caller's language", async () => {
    const test = async (body: Record<string, unknown>, language: 'en' | 'zh' = 'en') => {
      const response = await t.app.inject({
        method: 'POST',
        url: `${URL}/test`,
        headers: { authorization: `Bearer ${token}`, 'accept-language': language },
        payload: body,
      });
      expect(response.statusCode).toBe(200);
      return response.json<{ ok: boolean; failure?: string; message: string }>();
    };
    expect(await test(settings())).toEqual({
      ok: true,
      message: expect.stringMatching(
        /^Connected to 127\.0\.0\.1:\d+, logged in, and wrote, read and deleted a file in "\/gantry"$/,
      ),
    });
    expect(await test(settings(), 'zh')).toEqual({
      ok: true,
      message: expect.stringMatching(/^已连接 127\.0\.0\.1:\d+ 并登录，在“\/gantry”中写入、读取并删除了测试文件$/),
    });
    expect(await test(settings({ password: 'wrong-one' }))).toMatchObject({
      ok: false,
      failure: 'login',
      message: expect.stringMatching(/^127\.0\.0\.1:\d+: the FTP server refused the user name or password$/),
    });
    expect(await test(settings({ password: 'wrong-one' }), 'zh')).toMatchObject({
      ok: false,
      failure: 'login',
      message: expect.stringMatching(/^127\.0\.0\.1:\d+：FTP 服务器拒绝了用户名或密码$/),
    });
    expect(await test(settings({ host: 'gantry-nowhere.invalid' }))).toMatchObject({ ok: false, failure: 'dns' });
    const refused = await test(settings({ port: 1 }));
    expect(refused).toMatchObject({
      ok: false,
      failure: 'refused',
      message: '127.0.0.1:1: the FTP server refused the connection or cannot be reached',
    });
    expect(await test(settings({ port: 1 }), 'zh')).toMatchObject({
      ok: false,
      failure: 'refused',
      message: '127.0.0.1:1：FTP 服务器拒绝连接或无法到达',
    });
    expect(await test(settings({ tls: 'explicit' }))).toMatchObject({
      ok: false,
      failure: 'tls',
      message: expect.stringMatching(/does not offer explicit TLS \(it refused AUTH TLS\)/),
    });
    // Without a password: the stored one, for the stored server only.
    const { password: _omitted, ...withoutPassword } = settings();
    expect(await test(withoutPassword)).toMatchObject({
      ok: false,
      failure: 'notConfigured',
      message: 'No FTP password is stored: enter the password',
    });
    expect(await test(withoutPassword, 'zh')).toMatchObject({ message: '未保存 FTP 密码：请输入密码' });
    await t.call('PUT', URL, token, settings());
    expect(await test(withoutPassword)).toMatchObject({ ok: true });
    expect(await test({ ...withoutPassword, host: 'localhost' })).toMatchObject({
      ok: false,
      failure: 'notConfigured',
      message: expect.stringMatching(/enter the password/),
    });
    expect(logLines.join('')).not.toContain(FTP_TEST_PASSWORD);
  });
});

describe('the secret key from GANTRY_SECRET_KEY', () => {
  it('encrypts with the configured key and writes no key file', async () => {
    const key = randomBytes(32);
    const app = await createTestApp({ GANTRY_SECRET_KEY: key.toString('base64') });
    try {
      const admin = await adminWithLicence(app);
      expect((await app.call('PUT', URL, admin, settings())).statusCode).toBe(200);
      const [row] = await queryRows<{ password_encrypted: string }>(
        app.database.db,
        sql`select password_encrypted from ftp_settings`,
      );
      expect(SecretBox.of(key).open(row?.password_encrypted ?? '', 'ftp_settings.password')).toBe(FTP_TEST_PASSWORD);
      expect(existsSync(path.join(app.dataDir, SECRET_KEY_FILE))).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('says a stored password sealed under another key must be entered again', async () => {
    await t.call('PUT', URL, token, settings());
    // As after a data directory restored without its key file: the row sealed under a key the server lacks.
    const foreign = SecretBox.of(randomBytes(32)).seal(FTP_TEST_PASSWORD, 'ftp_settings.password');
    await t.database.db.execute(sql`update ftp_settings set password_encrypted = ${foreign}`);
    const error = await t.services.ftpStorage.list('').catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      failure: 'notConfigured',
      message: expect.stringMatching(/cannot be decrypted .* enter it again/),
    });
    const { password: _omitted, ...withoutPassword } = settings();
    const tried = await t.call('POST', `${URL}/test`, token, withoutPassword);
    expect(tried.json()).toMatchObject({
      ok: false,
      failure: 'notConfigured',
      message: '已保存的 FTP 密码无法解密（密钥已更换）：请在 FTP 设置中重新输入密码',
    });
    // Entering it again seals it under the server's key.
    await t.call('PUT', URL, token, settings());
    expect(await t.services.ftpStorage.list('')).toEqual([]);
  });
});
