import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { createTenant, installPlatform, TENANT_PASSWORD } from '../../test/fixtures.js';
import { ADMIN_PASSWORD, createTestApp, ENGINE, type TestApp, wire } from '../../test/test-app.js';
import { totpCode } from '../../test/totp-code.js';

const SPM = '/portal/rest/spm';
const STEP = 30_000;
let t: TestApp;
let admin: string;

beforeEach(async () => {
  t = await createTestApp();
  await t.registerAdmin();
  admin = await t.login();
  // Wrong codes count on the account like wrong passwords, so 'afterFailure' would ask for the
  // image code at the next password; these tests are about the second step.
  expect((await t.call('PATCH', `${SPM}/setting`, admin, { captcha: 'off' })).statusCode).toBe(200);
  // Every test starts 1 s into a time step, so "the next step" is 30 s away whatever the real time.
  t.advance(STEP - (t.now() % STEP) + 1000);
});
afterEach(async () => {
  await t.close();
});

const password = (username: string, secret = username === 'admin' ? ADMIN_PASSWORD : TENANT_PASSWORD) =>
  t.call('POST', `${SPM}/login`, undefined, { username, password: wire(secret) });
const code = (pendingToken: string, value: string) =>
  t.call('POST', `${SPM}/login/totp`, undefined, { pendingToken, code: value });
const pendingOf = async (username = 'admin') => {
  const response = await password(username);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ twoFactor?: string; pendingToken?: string; token?: string }>();
  expect(body.token).toBeUndefined();
  return body;
};
const auditActions = async () =>
  (
    await queryRows<{ action: string }>(
      t.database.db,
      sql`SELECT action FROM audit_log WHERE object_type = 'account' ORDER BY id`,
    )
  ).map((row) => row.action);

/** Turns it on for the signed-in `token`'s account: the secret and the recovery codes. */
async function turnOn(token = admin): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.call('POST', `${SPM}/login/current/totp/setup`, token);
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, uri } = setup.json<{ secret: string; uri: string }>();
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(uri).toContain(`secret=${secret}`);
  const confirmed = await t.call('POST', `${SPM}/login/current/totp/confirm`, token, {
    code: totpCode(secret, t.now()),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
  // The code just used for the confirmation is spent: move to the next step.
  t.advance(STEP);
  return { secret, recoveryCodes };
}

describe(`two-factor sign-in (${ENGINE})`, () => {
  it('is turned on from the personal centre with a code of the new secret, and shows ten recovery codes', async () => {
    expect((await t.call('GET', `${SPM}/login/current/totp`, admin)).json()).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });
    const setup = (await t.call('POST', `${SPM}/login/current/totp/setup`, admin)).json<{ secret: string }>();
    const wrong = await t.call('POST', `${SPM}/login/current/totp/confirm`, admin, {
      code: totpCode(setup.secret, t.now(), 5),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'totpCodeWrong' });
    const right = await t.call('POST', `${SPM}/login/current/totp/confirm`, admin, {
      code: totpCode(setup.secret, t.now()),
    });
    const { recoveryCodes } = right.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const recovery of recoveryCodes) expect(recovery).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
    expect((await t.call('GET', `${SPM}/login/current/totp`, admin)).json()).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });
    // Stored: the secret sealed, the recovery codes hashed; neither in clear.
    const stored = JSON.stringify(await queryRows(t.database.db, sql`SELECT * FROM user_totp, totp_recovery_codes`));
    expect(stored).not.toContain(setup.secret);
    for (const recovery of recoveryCodes) expect(stored).not.toContain(recovery);
    // A second set-up while on is refused (turn it off first).
    expect((await t.call('POST', `${SPM}/login/current/totp/setup`, admin)).statusCode).toBe(409);
    expect(await auditActions()).toEqual(['account.totp.on']);
  });

  it('asks the code after the password; no session before it; the pending sign-in is single use', async () => {
    const { secret } = await turnOn();
    const pending = await pendingOf();
    expect(pending.twoFactor).toBe('code');
    const pendingToken = pending.pendingToken ?? '';
    // The pending token is no session.
    expect((await t.call('GET', `${SPM}/login/current/user`, pendingToken)).statusCode).toBe(401);
    const signedIn = await code(pendingToken, totpCode(secret, t.now()));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = signedIn.json<{ token: string }>().token;
    expect((await t.call('GET', `${SPM}/login/current/user`, session)).statusCode).toBe(200);
    t.advance(STEP);
    const again = await code(pendingToken, totpCode(secret, t.now()));
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ code: 'pendingSignInInvalid' });
  });

  it('never accepts a code twice, nor one older than the last accepted; accepts one step of drift', async () => {
    const { secret } = await turnOn();
    const used = totpCode(secret, t.now());
    expect((await code((await pendingOf()).pendingToken ?? '', used)).statusCode).toBe(200);
    // Replay within its window: refused.
    const replay = await code((await pendingOf()).pendingToken ?? '', used);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'totpCodeWrong' });
    // The next step's code (a phone's clock 30 s ahead) is accepted now…
    const ahead = totpCode(secret, t.now(), 1);
    expect((await code((await pendingOf()).pendingToken ?? '', ahead)).statusCode).toBe(200);
    // …and once the clock gets there, neither it nor the previous step's code is accepted again.
    t.advance(STEP);
    expect((await code((await pendingOf()).pendingToken ?? '', ahead)).statusCode).toBe(400);
    expect((await code((await pendingOf()).pendingToken ?? '', totpCode(secret, t.now(), -1))).statusCode).toBe(400);
    // Two steps off: outside the window.
    expect((await code((await pendingOf()).pendingToken ?? '', totpCode(secret, t.now(), 2))).statusCode).toBe(400);
    // A later window's code is accepted.
    t.advance(STEP);
    expect((await code((await pendingOf()).pendingToken ?? '', totpCode(secret, t.now()))).statusCode).toBe(200);
    expect((await auditActions()).filter((action) => action === 'account.totp.refused')).toHaveLength(4);
  });

  it('counts wrong codes towards the lockout, and a right password in between does not clear them', async () => {
    const patch = await t.call('PATCH', `${SPM}/setting`, admin, {
      errorLogin: { count: 3, duration: { count: 10, unit: 'm' } },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const { secret } = await turnOn();
    const wrong = () => totpCode(secret, t.now(), 7);
    // Password, wrong code; twice over (each password given again).
    for (let i = 0; i < 2; i++) {
      const refused = await code((await pendingOf()).pendingToken ?? '', wrong());
      expect(refused.json()).toMatchObject({ code: 'totpCodeWrong' });
    }
    const pendingToken = (await pendingOf()).pendingToken ?? '';
    const third = await code(pendingToken, wrong());
    expect(third.json()).toMatchObject({ code: 'accountFrozen' });
    // Frozen: the right code and the right password are refused alike until the freeze ends.
    expect((await code(pendingToken, totpCode(secret, t.now()))).json()).toMatchObject({ code: 'accountFrozen' });
    expect((await password('admin')).json()).toMatchObject({ code: 'accountFrozen' });
    t.advance(10 * 60_000 + STEP);
    const pending = await pendingOf();
    expect((await code(pending.pendingToken ?? '', totpCode(secret, t.now()))).statusCode).toBe(200);
  });

  it('ends a pending sign-in after five wrong codes, and after five minutes', async () => {
    const { secret } = await turnOn();
    const pendingToken = (await pendingOf()).pendingToken ?? '';
    for (let i = 0; i < 5; i++) {
      expect((await code(pendingToken, totpCode(secret, t.now(), 9))).json()).toMatchObject({ code: 'totpCodeWrong' });
    }
    expect((await code(pendingToken, totpCode(secret, t.now()))).statusCode).toBe(401);
    const late = (await pendingOf()).pendingToken ?? '';
    t.advance(5 * 60_000 + 1000);
    expect((await code(late, totpCode(secret, t.now()))).json()).toMatchObject({ code: 'pendingSignInInvalid' });
  });

  it('takes a recovery code once', async () => {
    const { recoveryCodes } = await turnOn();
    const [first = ''] = recoveryCodes;
    const used = await code((await pendingOf()).pendingToken ?? '', first.toLowerCase().replaceAll('-', ''));
    expect(used.statusCode, used.body).toBe(200);
    const again = await code((await pendingOf()).pendingToken ?? '', first);
    expect(again.json()).toMatchObject({ code: 'totpCodeWrong' });
    const status = await t.call('GET', `${SPM}/login/current/totp`, used.json<{ token: string }>().token);
    expect(status.json()).toMatchObject({ recoveryCodesLeft: 9 });
    expect(await auditActions()).toEqual(['account.totp.on', 'account.totp.recoveryCodeUsed', 'account.totp.refused']);
  });

  it('is turned off with the password or a current code, never without', async () => {
    const { secret } = await turnOn();
    const off = (body: object) => t.call('POST', `${SPM}/login/current/totp/off`, admin, body);
    expect((await off({})).statusCode).toBe(400);
    expect((await off({ password: wire('Wrong12345') })).json()).toMatchObject({ code: 'verifyFailed' });
    expect((await off({ code: totpCode(secret, t.now(), 4) })).json()).toMatchObject({ code: 'totpCodeWrong' });
    expect((await off({ code: totpCode(secret, t.now()) })).statusCode).toBe(200);
    expect((await off({ password: wire(ADMIN_PASSWORD) })).json()).toMatchObject({ code: 'totpNotOn' });
    // Off: the password alone signs in again.
    expect((await password('admin')).json()).toHaveProperty('token');
    await turnOn();
    expect((await off({ password: wire(ADMIN_PASSWORD) })).statusCode).toBe(200);
    expect(await auditActions()).toEqual([
      'account.totp.on',
      'account.totp.off',
      'account.totp.on',
      'account.totp.off',
    ]);
  });

  it('leads an account that settings require it of to set it up after the password, then keeps it on', async () => {
    await installPlatform(t);
    await createTenant(t, admin, 'tena');
    const patch = await t.call('PATCH', `${SPM}/setting`, admin, { twoFactor: { admin: false, tenants: true } });
    expect(patch.statusCode, patch.body).toBe(200);
    // The administrator is not covered.
    expect((await password('admin')).json()).toHaveProperty('token');
    const pending = await pendingOf('tena');
    expect(pending.twoFactor).toBe('setup');
    const pendingToken = pending.pendingToken ?? '';
    const setup = await t.call('POST', `${SPM}/login/totp/setup`, undefined, { pendingToken });
    const { secret } = setup.json<{ secret: string }>();
    const confirmed = await t.call('POST', `${SPM}/login/totp/setup/confirm`, undefined, {
      pendingToken,
      code: totpCode(secret, t.now()),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { token, recoveryCodes } = confirmed.json<{ token: string; recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect((await t.call('GET', `${SPM}/login/current/totp`, token)).json()).toEqual({
      enabled: true,
      required: true,
      recoveryCodesLeft: 10,
    });
    const off = await t.call('POST', `${SPM}/login/current/totp/off`, token, { password: wire(TENANT_PASSWORD) });
    expect(off.json()).toMatchObject({ code: 'totpRequired' });
    // From now on the code is asked.
    t.advance(STEP);
    const next = await pendingOf('tena');
    expect(next.twoFactor).toBe('code');
    expect((await code(next.pendingToken ?? '', totpCode(secret, t.now()))).statusCode).toBe(200);
  });
});
