/**
 * GANTRY_LICENCE_BINDING=platform (issue 35): the machine code is the platform's identity in its
 * database, not this machine's hardware, so every node of one platform shows the same code and a
 * licence issued for it is in force on each; when the database's identity changes (a platform
 * restore of another platform), so does the code.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { licenceText } from '../../test/fixtures.js';
import { createTestApp, ENGINE, TEST_MACHINE_CODE, type TestApp } from '../../test/test-app.js';
import { platformCodeOf } from './machine-identity.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const LICENCE = '/portal/rest/license';

async function platformId(t: TestApp): Promise<string> {
  const [row] = await queryRows<{ id: string }>(t.database.db, sql`SELECT id::text AS id FROM platform_identity`);
  if (!row) throw new Error('no platform identity');
  return row.id;
}

describe(`licence bound to the platform (${ENGINE})`, () => {
  it("shows the platform's code, accepts a licence for it, and follows the database's identity", async () => {
    const t = await createTestApp({ GANTRY_LICENCE_BINDING: 'platform' });
    app = t;
    await t.registerAdmin();
    const admin = await t.login();
    const code = platformCodeOf(await platformId(t));
    expect(code).not.toBe(TEST_MACHINE_CODE);
    const machine = await t.call('GET', `${LICENCE}/machine`, admin);
    expect(machine.json()).toMatchObject({ machineCode: code });

    // A licence for the hardware is another machine's; one for the platform is in force.
    const install = async (text: string) => {
      await t.services.licence.repo.install(JSON.parse(text).document.grant, text);
      t.services.platformLicence.forget();
      return (await t.call('GET', `${LICENCE}/info`, admin)).json();
    };
    expect(await install(licenceText(t))).toMatchObject({ state: 'otherMachine' });
    expect(await install(licenceText(t, {}, { machineCode: code }))).toMatchObject({ state: 'valid' });

    // The database now holds another platform's identity (what restoring its backup does).
    await t.database.db.execute(sql`UPDATE platform_identity SET id = gen_random_uuid()`);
    t.services.platformLicence.forget();
    const moved = (await t.call('GET', `${LICENCE}/info`, admin)).json();
    expect(moved).toMatchObject({ state: 'otherMachine', machineCode: code });
    expect((await t.call('GET', `${LICENCE}/machine`, admin)).json().machineCode).not.toBe(code);
  });

  it('binds to the hardware by default', async () => {
    const t = await createTestApp();
    app = t;
    await t.registerAdmin();
    const machine = await t.call('GET', `${LICENCE}/machine`, await t.login());
    expect(machine.json()).toMatchObject({ machineCode: TEST_MACHINE_CODE });
  });
});
