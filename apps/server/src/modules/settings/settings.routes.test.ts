import { DEFAULT_SETTINGS, type Settings } from '@gantry/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, type TestApp } from '../../test/test-app.js';
import { SettingsRepository } from './settings.repository.js';

const URL = '/portal/rest/spm/setting';
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

const full = (overrides: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, ...overrides });

describe(`settings (${ENGINE})`, () => {
  it('shows the public subset to anyone and everything to the administrator', async () => {
    const anonymous = (await t.call('GET', URL)).json();
    expect(Object.keys(anonymous).sort()).toEqual(
      [
        'backgroundImage',
        'copyright',
        'helpUrl',
        'language',
        'logo',
        'name',
        'project_backgroundImage',
        'project_logo',
      ].sort(),
    );
    const admin = (await t.call('GET', URL, token)).json();
    expect(admin).toMatchObject({
      language: 'zh_Hans',
      enableCors: false,
      captcha: 'afterFailure',
      errorLogin: { count: null, duration: { count: 1, unit: 'm', interval: 60 } },
    });
  });

  it('answers anonymous callers the same from the database and from the cache, and a change at once', async () => {
    await t.call('PATCH', URL, token, { name: 'Renamed' });
    // The change dropped the cached copy: the first answer is read from the database, the next from the cache.
    const [cold, warm] = [await t.call('GET', URL), await t.call('GET', URL)];
    for (const response of [cold, warm]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(warm.body).toBe(cold.body);
    expect(cold.json()).toMatchObject({ name: 'Renamed', language: 'zh_Hans' });
    expect(cold.json()).not.toHaveProperty('enableCors');
  });

  it('needs a signed-in administrator to write', async () => {
    expect((await t.call('PUT', URL, undefined, full())).statusCode).toBe(401);
    expect((await t.call('PATCH', URL, 'dead-token', { name: 'x' })).statusCode).toBe(401);
  });

  it('saves the whole document and normalises the derived parts', async () => {
    const response = await t.call(
      'PUT',
      URL,
      token,
      full({
        name: '  Plant Ops  ',
        copyright: '© 2026 Plant',
        errorLogin: { count: 0, duration: { count: 2, unit: 'h' } },
        loginDuration: { count: 5, unit: 'm' },
        retentionPolicy: { count: 2, unit: 'M' },
        mediaLibrary: { publicDirEnable: false, publicDirFeature: ['mkDir', 'upload'] },
      }),
    );
    expect(response.statusCode).toBe(200);
    const saved = response.json<Settings>();
    expect(saved.name).toBe('Plant Ops');
    expect(saved.errorLogin).toEqual({ count: null, duration: { count: 2, unit: 'h', interval: 7200 } });
    expect(saved.loginDuration).toEqual({ count: 10, unit: 'm', time: 600 });
    expect(saved.retentionPolicy).toEqual({ count: 2, unit: 'M', time: 60 * 86_400 });
    expect(saved.mediaLibrary).toEqual({ publicDirEnable: false, publicDirFeature: [] });
    expect((await t.call('GET', URL, token)).json()).toEqual(saved);
    expect((await t.call('GET', URL)).json()).toMatchObject({ name: 'Plant Ops', copyright: '© 2026 Plant' });
  });

  it('patches only the fields given', async () => {
    await t.call('PATCH', URL, token, { name: 'First' });
    const response = await t.call('PATCH', URL, token, {
      enableCors: true,
      mediaLibrary: { publicDirEnable: true, publicDirFeature: ['mkDir', 'delete', 'mkDir'] },
    });
    expect(response.json()).toMatchObject({
      name: 'First',
      enableCors: true,
      mediaLibrary: { publicDirEnable: true, publicDirFeature: ['mkDir', 'delete'] },
    });
  });

  it.each([
    [{ name: '   ' }, 'name', '系统名称不能为空'],
    [{ errorLogin: { count: -1, duration: { count: 1, unit: 'm' } } }, 'errorLogin.count', '最小值为0'],
    [{ errorLogin: { count: 1.5, duration: { count: 1, unit: 'm' } } }, 'errorLogin.count', '最小值为0'],
    [
      { errorLogin: { count: 3, duration: { count: 0, unit: 'm' } } },
      'errorLogin.duration.count',
      '请输入大于等于1的整数',
    ],
    [{ loginDuration: { count: 0, unit: 'h' } }, 'loginDuration.count', '请输入大于等于1的整数'],
    [{ retentionPolicy: { count: 0, unit: 'Y' } }, 'retentionPolicy.count', '请输入大于等于1的整数'],
    [{ logo: 'javascript:alert(1)' }, 'logo', '图片地址不正确'],
  ])('refuses %j with the message on %s and changes nothing', async (patch, field, message) => {
    const before = (await t.call('GET', URL, token)).json();
    const response = await t.call('PATCH', URL, token, patch);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', fields: { [field]: message } });
    expect((await t.call('GET', URL, token)).json()).toEqual(before);
  });

  it('refuses unknown units and languages', async () => {
    for (const patch of [{ loginDuration: { count: 1, unit: 'Y' } }, { language: 'fr' }, { captcha: 'sometimes' }]) {
      expect((await t.call('PATCH', URL, token, patch)).statusCode).toBe(400);
    }
  });

  it('answers validation errors in English when asked', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: URL,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
      payload: { name: '' },
    });
    expect(response.json()).toMatchObject({
      message: 'System name is required',
      fields: { name: 'System name is required' },
    });
  });
});

describe(`cross-origin access follows enableCors at run time (${ENGINE})`, () => {
  const foreign = 'http://other.example:8080';
  const probe = () => t.app.inject({ method: 'GET', url: URL, headers: { origin: foreign } });
  const preflight = () =>
    t.app.inject({
      method: 'OPTIONS',
      url: URL,
      headers: {
        origin: foreign,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization',
      },
    });

  it('is off by default, on after enabling, off again after disabling', async () => {
    expect((await probe()).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight()).headers['access-control-allow-origin']).toBeUndefined();

    await t.call('PATCH', URL, token, { enableCors: true });
    const on = await probe();
    expect(on.headers['access-control-allow-origin']).toBe(foreign);
    expect(on.headers['access-control-expose-headers']).toContain('count');
    const allowed = await preflight();
    expect(allowed.headers['access-control-allow-origin']).toBe(foreign);
    expect(String(allowed.headers['access-control-allow-methods'])).toContain('PATCH');

    await t.call('PATCH', URL, token, { enableCors: false });
    expect((await probe()).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe(`settings under concurrency and after version changes (${ENGINE})`, () => {
  it('keeps every field of concurrent patches', async () => {
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        t.call('PATCH', URL, token, { name: `Name ${round}` }),
        t.call('PATCH', URL, token, { copyright: `Copyright ${round}` }),
      ]);
      expect((await t.call('GET', URL, token)).json()).toMatchObject({
        name: `Name ${round}`,
        copyright: `Copyright ${round}`,
      });
    }
  });

  it('keeps valid stored fields when another stored field is no longer valid', async () => {
    await t.call('PATCH', URL, token, {
      copyright: 'Kept',
      errorLogin: { count: 4, duration: { count: 2, unit: 'h' } },
    });
    // A value this version does not know, as a newer version or a hand edit might leave.
    await new SettingsRepository(t.database.db).modify((current) => ({ ...(current as object), captcha: 'sometimes' }));
    await t.call('PATCH', URL, token, { enableCors: true }); // the cache may still hold the old copy
    const after = (await t.call('PATCH', URL, token, { enableCors: false })).json();
    expect(after).toMatchObject({ copyright: 'Kept', captcha: 'afterFailure', errorLogin: { count: 4 } });
  });
});
