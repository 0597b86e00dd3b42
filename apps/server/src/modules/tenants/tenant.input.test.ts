/** Table preferences (PATCH user/{id} tableSettings): saved with the rest of a change or not at all, and bounded. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWithLicence, appWithTenants, createTenant, grant, SPM_URL } from '../../test/fixtures.js';
import { ADMIN_PASSWORD, createTestApp, type TestApp, wire } from '../../test/test-app.js';
import { TABLE_SETTINGS_MAX } from './tenant.repository.js';

let app: TestApp;
let admin: string;
let tenant: string;
beforeAll(async () => {
  [app, admin, tenant] = await appWithTenants(['acme']);
});
afterAll(() => app.close());

const setting = { columns: ['name'], density: 'compact', pageSize: 10 };
const tables = (from: number, count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`table${from + i}`, setting]));
const saved = async () => (await app.call('GET', `${SPM_URL}/user/acme`, admin)).json().tableSettings;

describe('table preferences', () => {
  it('are not saved when the rest of the same change is refused', async () => {
    const refused = await app.call('PATCH', `${SPM_URL}/user/acme`, admin, {
      tableSettings: { project: setting },
      grant: grant(app, { userCount: 100_000 }),
    });
    expect(refused.statusCode).toBe(400);
    expect(await saved()).toEqual({});
  });

  it('a field the call does not know is refused by its name, and nothing is saved', async () => {
    const refused = await app.call('PATCH', `${SPM_URL}/user/acme`, admin, {
      tableSettings: { project: setting },
      foo: 1,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'validation',
      message: '不认识的字段：foo',
      fields: { foo: '不认识的字段：foo' },
    });
    expect(await saved()).toEqual({});
  });

  it('are kept to a bounded number of tables per user', async () => {
    const patch = (tableSettings: unknown) => app.call('PATCH', `${SPM_URL}/user/acme`, tenant, { tableSettings });
    const tooMany = await patch(tables(0, TABLE_SETTINGS_MAX + 1));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: 'validation', fields: { tableSettings: expect.any(String) } });
    expect(await saved()).toEqual({});

    expect((await patch(tables(0, TABLE_SETTINGS_MAX - 1))).statusCode).toBe(200);
    expect((await patch(tables(TABLE_SETTINGS_MAX - 1, 1))).statusCode).toBe(200);
    // Full: another table is refused, changing or removing one is not.
    expect((await patch(tables(TABLE_SETTINGS_MAX, 1))).statusCode).toBe(400);
    expect((await patch({ table0: { ...setting, pageSize: 20 } })).statusCode).toBe(200);
    expect((await patch({ table1: null, extra: setting })).statusCode).toBe(200);
    const kept = await saved();
    expect(Object.keys(kept)).toHaveLength(TABLE_SETTINGS_MAX);
    expect(kept.table0.pageSize).toBe(20);
    expect(kept.table1).toBeUndefined();
  });
});

describe('administrator password checks', () => {
  it('are throttled per address like sign-in, so a stolen token cannot guess at hash speed', async () => {
    const throttled = await createTestApp({ GANTRY_LOGIN_RATE_PER_MINUTE: '3' });
    try {
      const token = await adminWithLicence(throttled);
      await createTenant(throttled, token, 'acme');
      const verify = () => throttled.call('POST', `${SPM_URL}/user/changepwd`, token, { password: wire('Guess1234') });
      const verified = [await verify(), await verify(), await verify(), await verify()];
      expect(verified.map((r) => r.statusCode)).toEqual([400, 400, 400, 429]);
      expect(verified[3]?.json().code).toBe('tooManyRequests');
      const set = () =>
        throttled.call('PUT', `${SPM_URL}/user/acme/password`, token, {
          adminPassword: wire(ADMIN_PASSWORD),
          password: wire('Changed123'),
          password1: wire('Changed123'),
        });
      const changed = [await set(), await set(), await set(), await set()];
      expect(changed.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    } finally {
      await throttled.close();
    }
  });
});
