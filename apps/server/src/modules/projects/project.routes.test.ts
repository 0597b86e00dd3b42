import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, createTenant, grant, projectBody, SPM_URL } from '../../test/fixtures.js';
import { selfSigned } from '../../test/self-signed.js';
import type { TestApp } from '../../test/test-app.js';

let app: TestApp;
let admin: string;
let tenant: string;
beforeEach(async () => {
  [app, admin, tenant] = await appWithTenants(['acme']);
});
afterEach(() => app.close());

const q = (query: unknown) => encodeURIComponent(JSON.stringify(query));
const post = (token: string, overrides: Record<string, unknown> = {}) =>
  app.call('POST', `${SPM_URL}/project`, token, projectBody(app, overrides));
const small = () => ({
  grant: grant(app, { userCount: 1, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] }),
});

function multipart(fields: Record<string, string>, files: Array<{ field: string; name: string; content: string }>) {
  const boundary = '----gantrycert';
  const parts = [
    ...Object.entries(fields).map(
      ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
    ),
    ...files.map(
      (f) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n${f.content}\r\n`,
    ),
  ];
  return {
    payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
// Uploads are checked (a matching, current pair): a real self-signed one.
const PAIR = selfSigned('plant.example.com');
const KEY = PAIR.key.toString();
const PEM = PAIR.pem.toString();

describe('projects', () => {
  it('creates platform and tenant projects; each caller lists what it may see, with count and projection', async () => {
    const platform = await post(admin, { id: 'plant1', name: 'Platform plant' });
    expect(platform.statusCode).toBe(200);
    expect(platform.json()).toMatchObject({
      id: 'plant1',
      user: { id: 'admin', name: 'admin' },
      status: true,
      projectType: 'blank',
    });
    const generated = await post(tenant, small());
    expect(generated.statusCode).toBe(200);
    expect(generated.json().id).toMatch(/^[a-z][a-z0-9]*$/);
    expect(generated.json().user).toEqual({ id: 'acme', name: 'Tenant acme' });

    const all = await app.call(
      'GET',
      `${SPM_URL}/project?query=${q({ withCount: true, sort: { createTime: -1 } })}`,
      admin,
    );
    expect(all.headers.count).toBe('2');
    const mine = await app.call('GET', `${SPM_URL}/project?query=${q({ withCount: true })}`, tenant);
    expect(mine.headers.count).toBe('1');
    expect(mine.json().map((p: { id: string }) => p.id)).toEqual([generated.json().id]);
    const scoped = await app.call('GET', `${SPM_URL}/project?query=${q({ filter: { user: { ne: 'admin' } } })}`, admin);
    expect(scoped.json()).toHaveLength(1);
    const projected = await app.call(
      'GET',
      `${SPM_URL}/project?query=${q({ project: ['name'], filter: { id: 'plant1' } })}`,
      admin,
    );
    expect(projected.json()).toEqual([{ id: 'plant1', name: 'Platform plant' }]);
    const bad = await app.call('GET', `${SPM_URL}/project?query=${q({ filter: { passwordHash: 'x' } })}`, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('badQuery');
    const badRegex = await app.call('GET', `${SPM_URL}/project?query=${q({ filter: { name: { like: '(' } } })}`, admin);
    expect(badRegex.statusCode).toBe(400);
    const count = await app.call('GET', `${SPM_URL}/project/count?query=${q({ user: 'acme' })}`, admin);
    expect(count.json()).toEqual({ count: 1 });
    const available = await app.call('GET', `${SPM_URL}/project/available`, tenant);
    expect(available.json()).toEqual([{ id: generated.json().id, name: 'Plant' }]);
    const names = await app.call('GET', `${SPM_URL}/project/_collectionNames?projectId=plant1`, admin);
    // The collections that hold documents (none yet): modules/documents.
    expect(names.json()).toEqual([]);
  });

  it('applies the id rules of §5 with their messages', async () => {
    const cases: Array<[string, string]> = [
      ['12345', '项目ID不能全为数字'],
      ['Abc', '项目ID不能包含大写字母'],
      ['1abc', '项目ID必须以小写字母开头'],
      ['default', '项目ID不能为default'],
      ['ab-c', '项目ID只能包含小写字母和数字'],
    ];
    for (const [id, message] of cases) {
      const response = await post(admin, { id });
      expect(response.statusCode, id).toBe(400);
      expect(response.json().fields.id, id).toBe(message);
    }
    await post(admin, { id: 'abc1', ...small() });
    const taken = await post(admin, { id: 'abc1', ...small() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('projectIdTaken');
  });

  it('checks domain, port, template choice and media permissions', async () => {
    const en = (body: Record<string, unknown>) =>
      app.app.inject({
        method: 'POST',
        url: `${SPM_URL}/project`,
        headers: { authorization: admin, 'accept-language': 'en' },
        payload: projectBody(app, { ...small(), ...body }),
      });
    for (const domain of ['not a domain', 'a--b.com', '-a.com', 'a.c', 'http://exa_mple.com']) {
      const response = await en({ domain });
      expect(response.statusCode, domain).toBe(400);
      expect(response.json().fields.domain).toBe('domain format error!');
    }
    expect((await en({ domain: 'https://plant.example.com:8443/app', id: 'dom1' })).statusCode).toBe(200);
    const clash = await en({ domain: 'PLANT.example.com:8443/app/', id: 'dom2' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('domainTaken');
    for (const port of [5000, 65536, 6000.5]) {
      expect((await en({ port })).json().fields.port, String(port)).toBe('The port must be from 5001 to 65535');
    }
    expect((await en({ port: 5001, id: 'port1' })).statusCode).toBe(200);
    expect((await en({ port: 5001, id: 'port2' })).json().code).toBe('portTaken');
    const template = await en({ projectType: 'template' });
    expect(template.statusCode).toBe(400);
    expect(template.json().fields.type).toBe('please select a solution library before submitting');
    const media = await en({
      id: 'media1',
      advanced: { mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: ['upload'] },
    });
    expect(media.json().advanced).toEqual({ mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] });
  });

  it('keeps project grants within the owner tenant, summed over its projects', async () => {
    // The tenant holds users 10, tables 10, points 1000, features gis + DST, 100 days from today.
    const over = await post(tenant, { grant: grant(app, { userCount: 11, flow: { tableCount: 1 }, features: [] }) });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('用户数不能大于授权用户数');
    await createProject(app, tenant, {
      grant: grant(app, { userCount: 6, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] }),
    });
    const sum = await post(tenant, {
      grant: grant(app, { userCount: 5, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] }),
    });
    expect(sum.json().fields['grant.userCount']).toBe('用户数不能大于授权用户数');
    const early = await post(tenant, {
      grant: grant(app, {
        userCount: 1,
        startTime: '2000-01-01',
        flow: { tableCount: 1 },
        dataGathering: { point: 1 },
        features: [],
      }),
    });
    expect(early.json().fields['grant.startTime']).toBeDefined();
    const long = await post(tenant, {
      grant: grant(app, {
        userCount: 1,
        validityPeriod: 101,
        flow: { tableCount: 1 },
        dataGathering: { point: 1 },
        features: [],
      }),
    });
    expect(long.json().fields['grant.validityPeriod']).toBe('有效期不能大于授权有效期');
    const feature = await post(tenant, {
      grant: grant(app, { userCount: 1, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: ['AI'] }),
    });
    expect(feature.json().fields['grant.features']).toContain('AI');
    const pool = await app.call('GET', `${SPM_URL}/login/current/unUse/license`, tenant);
    expect(pool.json()).toMatchObject({
      parentKind: 'tenant',
      allocated: { userCount: 6 },
      available: { userCount: 4 },
    });
    expect((await app.call('GET', `${SPM_URL}/login/current/unUse/license?owner=admin`, tenant)).statusCode).toBe(403);
  });

  it('never lets concurrent allocations together exceed the tenant grant', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(tenant, {
          id: `race${i}`,
          grant: grant(app, { userCount: 3, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] }),
        }),
      ),
    );
    expect(attempts.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(attempts.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'grantInvalid')).toBe(true);
  });

  it('enforces the tenant’s project permissions and refuses another owner', async () => {
    await app.call('PATCH', `${SPM_URL}/user/acme`, admin, {
      permissions: { blankProjects: false, marketTemplates: true, ownTemplates: false },
    });
    const blank = await post(tenant, small());
    expect(blank.statusCode).toBe(403);
    expect(blank.json().code).toBe('projectTypeNotAllowed');
    // The template brings two tables: a grant of one is refused by the table gate (licence/table-gate.ts).
    const template = { projectType: 'template', type: 'heating-station' };
    expect((await post(tenant, { ...small(), ...template })).json().code).toBe('tablesOverGrant');
    const twoTables = grant(app, { userCount: 1, flow: { tableCount: 2 }, dataGathering: { point: 1 }, features: [] });
    expect((await post(tenant, { grant: twoTables, ...template })).statusCode).toBe(200);
    const foreignOwner = await post(tenant, { grant: twoTables, ...template, user: 'admin' });
    expect(foreignOwner.statusCode).toBe(403);
  });

  it('edits, toggles status and deletes a project with its files', async () => {
    const { id } = await createProject(app, tenant, { id: 'edit1', ...small() });
    const edited = await app.call(
      'PUT',
      `${SPM_URL}/project/${id}`,
      tenant,
      projectBody(app, { ...small(), name: 'Renamed', remarks: 'r' }),
    );
    expect(edited.json()).toMatchObject({ name: 'Renamed', remarks: 'r' });
    const withId = await app.call(
      'PUT',
      `${SPM_URL}/project/${id}`,
      tenant,
      projectBody(app, { ...small(), id: 'other' }),
    );
    expect(withId.statusCode).toBe(400);
    const off = await app.call('PATCH', `${SPM_URL}/project/${id}/status`, tenant, { status: false });
    expect(off.json().status).toBe(false);

    const form = multipart({ id, domain: '' }, [
      { field: 'certKey', name: 'site.key', content: KEY },
      { field: 'certPem', name: '证书_1.pem', content: PEM },
    ]);
    const cert = await app.app.inject({
      method: 'POST',
      url: `${SPM_URL}/project/cert`,
      headers: { authorization: tenant, ...form.headers },
      payload: form.payload,
    });
    expect(cert.statusCode).toBe(200);
    expect((await app.call('GET', `${SPM_URL}/project/${id}/cert`, tenant)).json()).toEqual({
      key: 'site.key',
      pem: '证书_1.pem',
    });
    const folder = path.join(app.dataDir, 'projects', id);
    expect(existsSync(path.join(folder, 'cert', 'site.key'))).toBe(true);

    expect((await app.call('DELETE', `${SPM_URL}/project/${id}`, tenant)).statusCode).toBe(200);
    expect(existsSync(folder)).toBe(false);
    expect((await app.call('GET', `${SPM_URL}/project/${id}`, tenant)).statusCode).toBe(404);
  });

  it('refuses certificate uploads that are not one .key and one .pem with allowed names', async () => {
    const { id } = await createProject(app, tenant, small());
    const upload = (files: Array<{ field: string; name: string; content: string }>) => {
      const body = multipart({ id }, files);
      return app.app.inject({
        method: 'POST',
        url: `${SPM_URL}/project/cert`,
        headers: { authorization: tenant, ...body.headers },
        payload: body.payload,
      });
    };
    const one = await upload([{ field: 'certKey', name: 'a.key', content: KEY }]);
    expect(one.json().message).toBe('请上传全部证书');
    const twoKeys = await upload([
      { field: 'certKey', name: 'a.key', content: KEY },
      { field: 'certPem', name: 'b.key', content: KEY },
    ]);
    expect(twoKeys.json().code).toBe('certificateFiles');
    const badName = await upload([
      { field: 'certKey', name: 'a b.key', content: KEY },
      { field: 'certPem', name: 'b.pem', content: PEM },
    ]);
    expect(badName.json().code).toBe('certificateFiles');
    const notPem = await upload([
      { field: 'certKey', name: 'a.key', content: 'hello' },
      { field: 'certPem', name: 'b.pem', content: PEM },
    ]);
    expect(notPem.json().code).toBe('certificateFiles');
    expect((await app.call('GET', `${SPM_URL}/project/${id}/cert`, tenant)).statusCode).toBe(404);
  });

  it('takes usage reports from the project runtime key and shows them in the list', async () => {
    const { id } = await createProject(app, tenant, small());
    const report = {
      usage: { userCount: 1, dataGathering: { point: 1 } },
      _stats_: [
        { type: 'plc', count: 5, online: 3 },
        { type: 'meter', count: 2, online: 2 },
      ],
      online: true,
    };
    const anonymous = await app.call('PUT', `${SPM_URL}/project/${id}/usage`, undefined, report);
    expect(anonymous.statusCode).toBe(401);
    const { key } = (await app.call('POST', `${SPM_URL}/project/${id}/runtime-key`, tenant)).json();
    const wrongKey = await app.app.inject({
      method: 'PUT',
      url: `${SPM_URL}/project/${id}/usage`,
      headers: { 'x-project-key': 'x' },
      payload: report,
    });
    expect(wrongKey.statusCode).toBe(401);
    const byTenant = await app.call('PUT', `${SPM_URL}/project/${id}/usage`, tenant, report);
    expect(byTenant.statusCode).toBe(401);
    const reported = await app.app.inject({
      method: 'PUT',
      url: `${SPM_URL}/project/${id}/usage`,
      headers: { 'x-project-key': key },
      payload: report,
    });
    expect(reported.statusCode).toBe(204);
    const [listed] = (await app.call('GET', `${SPM_URL}/project`, tenant)).json();
    expect(listed).toMatchObject({ license: report.usage, _stats_: report._stats_, online: true });
    const info = await app.call('GET', '/portal/rest/license/info', admin);
    expect(info.json().used).toMatchObject({ userCount: 1, 'dataGathering.point': 1 });
  });

  it('records administrative actions in the audit log, readable by the administrator', async () => {
    const { id } = await createProject(app, tenant, small());
    await app.call('PATCH', `${SPM_URL}/project/${id}/status`, admin, { status: false });
    const audit = await app.call('GET', `${SPM_URL}/audit?query=${q({ withCount: true, sort: { at: -1 } })}`, admin);
    expect(audit.statusCode).toBe(200);
    const actions = audit.json().map((a: { action: string }) => a.action);
    expect(actions.slice(0, 3)).toEqual(['project.disable', 'project.create', 'tenant.create']);
    expect(audit.json()[0]).toMatchObject({ actorId: 'admin', objectType: 'project', objectId: id, ip: '127.0.0.1' });
    expect((await app.call('GET', `${SPM_URL}/audit`, tenant)).statusCode).toBe(403);
    const dashboard = (await app.call('GET', `${SPM_URL}/dashboard`, tenant)).json();
    expect(dashboard).toMatchObject({
      tenants: null,
      projects: { enabled: 0, disabled: 1 },
      licence: { kind: 'tenant' },
    });
    expect(dashboard.audit.map((a: { action: string }) => a.action)).toContain('project.disable');
    const adminBoard = (await app.call('GET', `${SPM_URL}/dashboard`, admin)).json();
    expect(adminBoard.tenants).toEqual({ enabled: 1, disabled: 0 });
    const users = adminBoard.licence.measures.find((m: { path: string }) => m.path === 'userCount');
    expect(users).toEqual({ path: 'userCount', granted: 1000, allocated: 10, used: 0 });
  });

  it('lists grants ending within 14 days on the dashboard', async () => {
    await createTenant(app, admin, 'soon', { grant: grant(app, { validityPeriod: 10, userCount: 1 }) });
    const board = (await app.call('GET', `${SPM_URL}/dashboard`, admin)).json();
    expect(board.expiring.tenants).toEqual([expect.objectContaining({ id: 'soon', remainingTime: 10 })]);
  });
});
