import { CAPTCHA_ADDRESS_FAILURES, CAPTCHA_FAILURE_WINDOW_SECONDS } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { ADMIN_PASSWORD, createTestApp, ENGINE, type TestApp, wire } from '../../test/test-app.js';
import { hashToken } from './auth.service.js';

const SPM = '/portal/rest/spm';
let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const login = (username: string, password: string, extra: object = {}, language = 'zh') =>
  t.app.inject({
    method: 'POST',
    url: `${SPM}/login`,
    headers: { 'accept-language': language },
    payload: { username, password: wire(password), ...extra },
  });

const setSettings = async (patch: object) => {
  const token = await t.login();
  const response = await t.call('PATCH', `${SPM}/setting`, token, patch);
  expect(response.statusCode).toBe(200);
};

describe(`first run and registration (${ENGINE})`, () => {
  it('reports no admin, registers once, refuses a second registration', async () => {
    const before = await t.call('GET', `${SPM}/admin/check`);
    expect(before.statusCode).toBe(404);
    expect(before.json()).toMatchObject({ code: 'adminMissing', message: '请先设置admin密码，才可以登录！' });

    const first = await t.call('POST', `${SPM}/admin/register`, undefined, { password: wire(ADMIN_PASSWORD) });
    expect(first.json()).toEqual({ message: '管理员账号注册成功' });
    expect((await t.call('GET', `${SPM}/admin/check`)).json()).toEqual({ exists: true });

    const second = await t.call('POST', `${SPM}/admin/register`, undefined, { password: wire('Other1234') });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'adminExists', message: '管理员账号已存在' });
  });

  it('lets only one of two concurrent registrations win', async () => {
    const results = await Promise.all(
      ['First1234', 'Second1234'].map((p) => t.call('POST', `${SPM}/admin/register`, undefined, { password: wire(p) })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('refuses a password that was not sent hashed', async () => {
    const response = await t.call('POST', `${SPM}/admin/register`, undefined, { password: 'plain-text-1' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', fields: { password: '密码必须以哈希形式发送' } });
    expect((await t.call('GET', `${SPM}/admin/check`)).statusCode).toBe(404);
  });

  it('asks for the admin password before any login', async () => {
    const response = await login('admin', ADMIN_PASSWORD);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'adminMissing',
      fields: { user: '请先设置admin密码，才可以登录！' },
    });
  });
});

describe(`login (${ENGINE})`, () => {
  beforeEach(async () => {
    await t.registerAdmin();
  });

  it('signs in and returns the session user with an opaque token', async () => {
    const response = await login('admin', ADMIN_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ id: 'admin', username: 'admin', isAdmin: true, userId: 'admin', protectUrl: null });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, base64url
    expect(JSON.stringify(body)).not.toContain('passwordHash');
  });

  it('answers a wrong password with the spec message, in the requested language', async () => {
    await setSettings({ captcha: 'off' });
    const zh = await login('admin', 'Wrong12345');
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toMatchObject({
      code: 'badCredentials',
      message: '用户名或密码错误',
      fields: { user: '用户名或密码错误' },
    });
    const en = await login('admin', 'Wrong12345', {}, 'en-US,en;q=0.9');
    expect(en.json()).toMatchObject({ code: 'badCredentials', message: 'Wrong username or password' });
    const unknown = await login('nobody', ADMIN_PASSWORD);
    expect(unknown.json()).toMatchObject({ code: 'badCredentials' });
  });

  it('accepts the token bare and as Bearer', async () => {
    const token = await t.login();
    const url = `${SPM}/login/current/user`;
    for (const request of [{ headers: { authorization: token } }, { headers: { authorization: `Bearer ${token}` } }]) {
      const response = await t.app.inject({ method: 'GET', url, ...request });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: 'admin', isAdmin: true });
    }
    const anonymous = await t.call('GET', url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'unauthorized', message: '令牌到期，请重新登录' });
    expect((await t.call('GET', url, 'forged-token')).statusCode).toBe(401);
  });

  it('kills the token on logout', async () => {
    const token = await t.login();
    const exit = await t.call('POST', `${SPM}/login/exit`, token);
    expect(exit.json()).toEqual({ message: '退出成功' });
    expect((await t.call('GET', `${SPM}/login/current/user`, token)).statusCode).toBe(401);
    expect((await t.call('POST', `${SPM}/login/exit`, token)).statusCode).toBe(401);
  });

  it('expires sessions by the login duration, with a 10-minute floor', async () => {
    await setSettings({ loginDuration: { count: 3, unit: 'm' } });
    const token = await t.login();
    t.advance(9 * 60_000);
    expect((await t.call('GET', `${SPM}/login/current/user`, token)).statusCode).toBe(200);
    t.advance(61_000);
    expect((await t.call('GET', `${SPM}/login/current/user`, token)).statusCode).toBe(401);
  });
});

describe(`password change (${ENGINE})`, () => {
  beforeEach(async () => {
    await t.registerAdmin();
  });
  const change = (token: string, oldPassword: string, newPassword: string, newPassword2 = newPassword) =>
    t.call('PUT', `${SPM}/login/current/password`, token, {
      oldPassword: wire(oldPassword),
      newPassword: wire(newPassword),
      newPassword2: wire(newPassword2),
    });

  it('checks the old password', async () => {
    const token = await t.login();
    const response = await change(token, 'NotMine123', 'Newer12345');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'oldPasswordWrong', message: '原密码输入错误' });
    expect((await t.call('GET', `${SPM}/login/current/user`, token)).statusCode).toBe(200);
  });

  it('refuses a repeat that differs', async () => {
    const token = await t.login();
    const response = await change(token, ADMIN_PASSWORD, 'Newer12345', 'Other12345');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { newPassword2: '两次输入的密码不一致' } });
  });

  it('changes the password and ends every session of the user', async () => {
    await setSettings({ captcha: 'off' });
    const first = await t.login();
    const second = await t.login();
    const response = await change(first, ADMIN_PASSWORD, 'Newer12345');
    expect(response.json()).toEqual({ message: '修改成功请重新登录' });
    for (const token of [first, second]) {
      expect((await t.call('GET', `${SPM}/login/current/user`, token)).statusCode).toBe(401);
    }
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(400);
    expect((await login('admin', 'Newer12345')).statusCode).toBe(200);
  });
});

describe(`lockout (${ENGINE})`, () => {
  beforeEach(async () => {
    await t.registerAdmin();
    await setSettings({ captcha: 'off', errorLogin: { count: 3, duration: { count: 1, unit: 'm' } } });
  });

  it('never checks more than the configured count under 20 concurrent wrong attempts', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, () => login('admin', 'Wrong12345')));
    const codes = responses.map((r) => r.json<{ code: string }>().code);
    // Attempts 1 and 2 were checked and wrong; the 3rd was checked and froze; the rest never reached a hash.
    expect(codes.filter((c) => c === 'badCredentials')).toHaveLength(2);
    expect(codes.filter((c) => c === 'accountFrozen')).toHaveLength(18);
  });

  it('refuses a frozen account even with the right password, and allows it after the freeze', async () => {
    for (let i = 0; i < 2; i++)
      expect((await login('admin', 'Wrong12345')).json()).toMatchObject({ code: 'badCredentials' });
    const third = await login('admin', 'Wrong12345');
    expect(third.json()).toMatchObject({
      code: 'accountFrozen',
      message: '密码错误次数过多，账号已冻结，请1 分钟后再试',
    });

    const right = await login('admin', ADMIN_PASSWORD);
    expect(right.statusCode).toBe(400);
    expect(right.json()).toMatchObject({ code: 'accountFrozen' });

    t.advance(61_000);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    // A success starts the count over.
    expect((await login('admin', 'Wrong12345')).json()).toMatchObject({ code: 'badCredentials' });
  });

  it('does not lock anyone out when the count is 0 (no limit)', async () => {
    await setSettings({ errorLogin: { count: 0, duration: { count: 1, unit: 'm' } } });
    for (let i = 0; i < 6; i++)
      expect((await login('admin', 'Wrong12345')).json()).toMatchObject({ code: 'badCredentials' });
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });
});

describe(`verification code (${ENGINE})`, () => {
  beforeEach(async () => {
    await t.registerAdmin();
  });
  const captchaFor = (username: string) => t.call('GET', `${SPM}/login/captcha?username=${username}`);

  it('after a failure (the default): asked for, checked, and single use', async () => {
    expect((await captchaFor('admin')).json()).toEqual({ required: false });
    await login('admin', 'Wrong12345');
    const image = (await captchaFor('admin')).json();
    expect(image).toMatchObject({ required: true });
    expect(image.svg).toContain('<svg');

    const missing = await login('admin', ADMIN_PASSWORD);
    expect(missing.statusCode).toBe(451);
    expect(missing.json()).toMatchObject({ code: 'captchaRequired', fields: { code: '请输入验证码' } });

    const issued = await t.services.captcha.issue();
    const wrong = await login('admin', ADMIN_PASSWORD, { codeId: issued.id, code: 'zzzz' });
    expect(wrong.json()).toMatchObject({ code: 'captchaInvalid', message: '验证码错误或已过期' });
    // The wrong guess used the image up: the right answer no longer works either.
    expect((await login('admin', ADMIN_PASSWORD, { codeId: issued.id, code: issued.answer })).statusCode).toBe(451);

    const fresh = await t.services.captcha.issue();
    const ok = await login('admin', ADMIN_PASSWORD, { codeId: fresh.id, code: fresh.answer.toUpperCase() });
    expect(ok.statusCode).toBe(200);
    // A success clears the account's failures: no code asked any more (one failure from this address
    // is far below the address's own threshold).
    expect((await captchaFor('admin')).json()).toEqual({ required: false });
  });

  it('after a failure asks that account only; a whole address only after many failures from it', async () => {
    const from = (ip: string) => ({
      captcha: async (username: string) =>
        (
          await t.app.inject({ method: 'GET', url: `${SPM}/login/captcha?username=${username}`, remoteAddress: ip })
        ).json().required as boolean,
      login: (username: string, password: string) =>
        t.app.inject({
          method: 'POST',
          url: `${SPM}/login`,
          remoteAddress: ip,
          payload: { username, password: wire(password) },
        }),
    });
    const office = from('203.0.113.7');
    const home = from('198.51.100.2');

    // One typo behind a shared address: that account is asked for a code (from anywhere), nobody else.
    expect((await office.login('admin', 'Wrong12345')).json()).toMatchObject({ code: 'badCredentials' });
    expect(await office.captcha('admin')).toBe(true);
    expect(await home.captcha('admin')).toBe(true);
    expect(await office.captcha('colleague')).toBe(false);
    expect((await office.login('colleague', 'Wrong12345')).json()).toMatchObject({ code: 'badCredentials' });

    // Guessing at many names from one address: after CAPTCHA_ADDRESS_FAILURES (10) every name there is asked.
    for (let i = 3; i < CAPTCHA_ADDRESS_FAILURES; i++) {
      expect((await office.login(`guess${i}`, 'Wrong12345')).json(), `failure ${i}`).toMatchObject({
        code: 'badCredentials',
      });
    }
    expect(await office.captcha('newcomer')).toBe(false);
    expect((await office.login('guess10', 'Wrong12345')).json()).toMatchObject({ code: 'badCredentials' });
    expect(await office.captcha('newcomer')).toBe(true);
    expect((await office.login('newcomer', 'Wrong12345')).json()).toMatchObject({ code: 'captchaRequired' });
    // Other addresses are not punished for it.
    expect(await home.captcha('newcomer')).toBe(false);

    // An hour after the last failure everything is forgotten, and the address counts from zero again.
    t.advance(CAPTCHA_FAILURE_WINDOW_SECONDS * 1000 + 1000);
    expect(await office.captcha('admin')).toBe(false);
    expect(await office.captcha('newcomer')).toBe(false);
    expect((await office.login('guess11', 'Wrong12345')).json()).toMatchObject({ code: 'badCredentials' });
    expect(await office.captcha('newcomer')).toBe(false);
    expect((await office.login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('asks every time when set to always, never when off', async () => {
    await setSettings({ captcha: 'always' });
    expect((await captchaFor('admin')).json()).toMatchObject({ required: true });
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(451);

    const issued = await t.services.captcha.issue();
    const token = (await login('admin', ADMIN_PASSWORD, { codeId: issued.id, code: issued.answer })).json().token;
    await t.call('PATCH', `${SPM}/setting`, token, { captcha: 'off' });
    await login('admin', 'Wrong12345');
    expect((await captchaFor('admin')).json()).toEqual({ required: false });
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an expired code', async () => {
    await setSettings({ captcha: 'always' });
    const issued = await t.services.captcha.issue();
    t.advance(301_000);
    expect((await login('admin', ADMIN_PASSWORD, { codeId: issued.id, code: issued.answer })).statusCode).toBe(451);
  });
});

describe(`login throttling (${ENGINE})`, () => {
  it('refuses logins past the per-address rate before hashing anything, with the error body', async () => {
    await t.close();
    t = await createTestApp({ GANTRY_LOGIN_RATE_PER_MINUTE: '3' });
    await t.registerAdmin();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login('admin', ADMIN_PASSWORD)).statusCode);
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    const limited = await login('admin', ADMIN_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'tooManyRequests', message: '请求过于频繁，请稍后再试' });
    // Other calls are unaffected.
    expect((await t.call('GET', `${SPM}/setting`)).statusCode).toBe(200);
  });
});

describe(`secrets at rest (${ENGINE})`, () => {
  it('stores neither the token nor the password, only their hashes', async () => {
    await t.registerAdmin();
    const token = await t.login();
    const sessions = await queryRows<{ token_hash: string }>(t.database.db, sql`select token_hash from sessions`);
    expect(sessions.map((s) => s.token_hash)).toEqual([hashToken(token)]);
    const [admin] = await queryRows<{ password_hash: string }>(t.database.db, sql`select password_hash from users`);
    expect(admin?.password_hash).toMatch(/^\$argon2id\$/);
    expect(admin?.password_hash).not.toContain(wire(ADMIN_PASSWORD));
  });
});

describe(`hashing under a flood (${ENGINE})`, () => {
  it('refuses with 429 when the hash queue is full, and serves again afterwards', async () => {
    await t.close();
    t = await createTestApp({ GANTRY_HASH_CONCURRENCY: '1', GANTRY_HASH_QUEUE: '0' });
    await t.registerAdmin();
    await setSettings({ captcha: 'off' });
    // Enough at once that some find the one hash in use even when a loaded machine staggers their reads
    // (6 were all served one after another once, on PostgreSQL under CI's load).
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => login(`user${i}`, 'Wrong12345')));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses).toContain(429);
    expect(statuses).toContain(400);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });
});

describe(`lockout never outlives its freeze (${ENGINE})`, () => {
  beforeEach(async () => {
    await t.registerAdmin();
  });

  it('freezes, then frees, an account whose count went past a limit lowered since', async () => {
    const token = await t.login();
    const patch = (body: object) => t.call('PATCH', `${SPM}/setting`, token, body);
    await patch({ captcha: 'off', errorLogin: { count: 10, duration: { count: 1, unit: 'm' } } });
    for (let i = 0; i < 5; i++) await login('admin', 'Wrong12345');
    // The administrator (still signed in elsewhere) lowers the limit below the count reached.
    await patch({ errorLogin: { count: 3, duration: { count: 1, unit: 'm' } } });
    expect((await login('admin', ADMIN_PASSWORD)).json()).toMatchObject({ code: 'accountFrozen' });
    t.advance(61_000);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('does not count an attempt whose password was never checked (hash queue full)', async () => {
    await t.close();
    t = await createTestApp({ GANTRY_HASH_CONCURRENCY: '1', GANTRY_HASH_QUEUE: '0' });
    await t.registerAdmin();
    await setSettings({ captcha: 'off', errorLogin: { count: 2, duration: { count: 1, unit: 'm' } } });
    // Enough at once that some find the one hash in use even when a loaded machine staggers their reads.
    const burst = await Promise.all(Array.from({ length: 20 }, () => login('admin', 'Wrong12345')));
    const checked = burst.filter((r) => r.statusCode !== 429).length;
    expect(burst.some((r) => r.statusCode === 429)).toBe(true);
    // Refused-for-load attempts gave their place back: only checked ones count towards the freeze.
    if (checked < 2) expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    t.advance(61_000);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });
});

describe(`hostile input (${ENGINE})`, () => {
  beforeEach(async () => {
    await t.registerAdmin();
  });

  it('answers NUL characters with a 400 naming the field, never a 500', async () => {
    const bad = await login('ad\u0000min', ADMIN_PASSWORD);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation', fields: { username: expect.stringContaining('\\u0000') } });
    expect((await t.call('GET', `${SPM}/login/captcha?username=a%00b`)).statusCode).toBe(400);
    const token = await t.login();
    const patch = await t.call('PATCH', `${SPM}/setting`, token, { projectExpand: { label: 'x\u0000y' } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toMatchObject({ fields: { 'projectExpand.label': expect.any(String) } });
  });

  it('takes ?token= only on download links (GET), never elsewhere or for a change', async () => {
    const token = await t.login();
    const download = '/portal/rest/core/license/machineInfo/export';
    const viaQuery = await t.app.inject({
      method: 'PATCH',
      url: `${SPM}/setting?token=${token}`,
      payload: { name: 'X' },
    });
    expect(viaQuery.statusCode).toBe(401);
    // An ordinary read takes the header only.
    const read = await t.app.inject({ method: 'GET', url: `${SPM}/login/current/user?token=${token}` });
    expect(read.statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: `/portal/rest/core/license/machineInfo?token=${token}` });
    expect(list.statusCode).toBe(401);
    // The CSV download link does, and only spelled `token`.
    const file = await t.app.inject({ method: 'GET', url: `${download}?token=${token}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    for (const spelling of ['TOKEN', 'token%00', 'to%6Ben%20', 'Token']) {
      const odd = await t.app.inject({ method: 'GET', url: `${download}?${spelling}=${token}` });
      expect(odd.statusCode, spelling).toBe(401);
    }
    expect((await t.app.inject({ method: 'HEAD', url: `${download}?token=${token}` })).statusCode).toBe(401);
  });

  it('has no HEAD twin for the captcha call', async () => {
    expect((await t.app.inject({ method: 'HEAD', url: `${SPM}/login/captcha` })).statusCode).toBe(404);
  });
});
