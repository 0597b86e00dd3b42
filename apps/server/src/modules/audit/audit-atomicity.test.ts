import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { appWithTenants, createProject, grant, SPM_URL, TENANT_PASSWORD } from '../../test/fixtures.js';
import { selfSigned } from '../../test/self-signed.js';
import { ADMIN_PASSWORD, type TestApp, wire } from '../../test/test-app.js';

/**
 * docs/DECISIONS.md: an action and its audit entry commit together. A real trigger refuses the
 * audit insert of one action; the action must then have changed nothing. Without the trigger the
 * same call succeeds and leaves exactly one entry.
 */
let app: TestApp;
let admin: string;
let tenant: string;
beforeEach(async () => {
  [app, admin, tenant] = await appWithTenants(['acme']);
});
afterEach(() => app.close());

const run = (statement: SQL) => app.database.db.execute(statement);

/** A trigger that makes every audit insert of `action` fail, as a full disk or a broken column would. */
async function refuseAudit(action: string): Promise<void> {
  await run(sql`create or replace function refuse_audit() returns trigger language plpgsql as $$
    begin
      if new.action = tg_argv[0] then raise exception 'audit refused by test'; end if;
      return new;
    end $$`);
  await run(
    sql.raw(`create trigger refuse_audit before insert on audit_log for each row
    execute function refuse_audit('${action}')`),
  );
}
const allowAudit = () => run(sql`drop trigger refuse_audit on audit_log`);

async function entries(action: string, objectId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    app.database.db,
    sql`select count(*)::int as n from audit_log where action = ${action} and object_id = ${objectId}`,
  );
  return row?.n ?? -1;
}

// Uploads are checked (a matching, current pair): real self-signed ones.
const PAIRS = [selfSigned('one.example.com'), selfSigned('two.example.com')];
function certificateForm(id: string, key: string) {
  const boundary = '----gantryatomic';
  const part = (name: string, body: string, file?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${body}\r\n`;
  const pem = (PAIRS.find((pair) => pair.key.toString() === key) ?? PAIRS[0])?.pem.toString() ?? '';
  return {
    method: 'POST' as const,
    url: `${SPM_URL}/project/cert`,
    headers: { authorization: tenant, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.from(
      `${part('id', id)}${part('domain', '')}${part('certKey', key, `${id}.key`)}${part('certPem', pem, `${id}.pem`)}--${boundary}--\r\n`,
    ),
  };
}

describe('audit entries commit with their action', () => {
  it('certificate upload: a refused entry leaves the previous pair, row and files', async () => {
    const { id } = await createProject(app, tenant, { grant: grant(app, { userCount: 1, features: [] }) });
    const keyV1 = PAIRS[0]?.key.toString() ?? '';
    expect((await app.app.inject(certificateForm(id, keyV1))).statusCode).toBe(200);
    const keyFile = path.join(app.dataDir, 'projects', id, 'cert', `${id}.key`);

    await refuseAudit('project.certificate');
    const keyV2 = PAIRS[1]?.key.toString() ?? '';
    const refused = await app.app.inject({ ...certificateForm(id, keyV2) });
    expect(refused.statusCode).toBe(500);
    expect(readFileSync(keyFile, 'utf8')).toBe(keyV1);
    expect(await entries('project.certificate', id)).toBe(1);

    await allowAudit();
    expect((await app.app.inject(certificateForm(id, keyV2))).statusCode).toBe(200);
    expect(readFileSync(keyFile, 'utf8')).toBe(keyV2);
    expect(await entries('project.certificate', id)).toBe(2);
  });

  it('certificate upload: nothing stored when the first pair’s entry is refused', async () => {
    const { id } = await createProject(app, tenant, { grant: grant(app, { userCount: 1, features: [] }) });
    await refuseAudit('project.certificate');
    const key = PAIRS[0]?.key.toString() ?? '';
    expect((await app.app.inject(certificateForm(id, key))).statusCode).toBe(500);
    expect((await app.call('GET', `${SPM_URL}/project/${id}/cert`, tenant)).statusCode).toBe(404);
    expect(existsSync(path.join(app.dataDir, 'projects', id, 'cert'))).toBe(false);
    expect(await entries('project.certificate', id)).toBe(0);
  });

  it('runtime key: a refused entry keeps the previous key valid and issues none', async () => {
    const { id } = await createProject(app, tenant, { grant: grant(app, { userCount: 1, features: [] }) });
    const first = (await app.call('POST', `${SPM_URL}/project/${id}/runtime-key`, tenant)).json<{ key: string }>().key;
    const report = (key: string) =>
      app.app.inject({
        method: 'PUT',
        url: `${SPM_URL}/project/${id}/usage`,
        headers: { 'x-project-key': key },
        payload: { usage: {}, _stats_: [] },
      });

    await refuseAudit('project.runtimeKey');
    const refused = await app.call('POST', `${SPM_URL}/project/${id}/runtime-key`, tenant);
    expect(refused.statusCode).toBe(500);
    expect(refused.body).not.toContain('key":');
    expect((await report(first)).statusCode).toBe(204);
    expect(await entries('project.runtimeKey', id)).toBe(1);

    await allowAudit();
    const second = (await app.call('POST', `${SPM_URL}/project/${id}/runtime-key`, tenant)).json<{ key: string }>().key;
    expect((await report(first)).statusCode).toBe(401);
    expect((await report(second)).statusCode).toBe(204);
    expect(await entries('project.runtimeKey', id)).toBe(2);
  });

  it('tenant password change: a refused entry keeps the old password and the sessions', async () => {
    const change = (password: string) =>
      app.call('PUT', `${SPM_URL}/user/acme/password`, admin, {
        adminPassword: wire(ADMIN_PASSWORD),
        password: wire(password),
        password1: wire(password),
      });
    const hash = () =>
      queryRows<{ h: string }>(app.database.db, sql`select password_hash as h from users where id = 'acme'`);
    const before = await hash();
    await refuseAudit('tenant.password');
    expect((await change('Changed123')).statusCode).toBe(500);
    expect(await hash()).toEqual(before);
    expect((await app.call('GET', `${SPM_URL}/login/current/user`, tenant)).statusCode).toBe(200);
    expect(await app.login('acme', TENANT_PASSWORD)).toBeTruthy();
    expect(await entries('tenant.password', 'acme')).toBe(0);

    await allowAudit();
    expect((await change('Changed123')).statusCode).toBe(200);
    expect(await hash()).not.toEqual(before);
    expect((await app.call('GET', `${SPM_URL}/login/current/user`, tenant)).statusCode).toBe(401);
    expect(await app.login('acme', 'Changed123')).toBeTruthy();
    expect(await entries('tenant.password', 'acme')).toBe(1);
  });
});
