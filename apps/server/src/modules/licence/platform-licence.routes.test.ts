/**
 * The platform licence through the API: license/machine, license/info, license/verify and
 * license/upload (multipart `file`), and the gates it puts on adding tenants and projects and on
 * the features tenants see. Time moves with the injected clock, never with sleeps.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { canonicalJson, type LicenceDocument, translate } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import {
  createProject,
  createTenant,
  day,
  grant,
  licenceText,
  projectBody,
  SPM_URL,
  signedInTenant,
  TENANT_PASSWORD,
} from '../../test/fixtures.js';
import { createTestApp, TEST_MACHINE, TEST_MACHINE_CODE, type TestApp, wire } from '../../test/test-app.js';
import { readWorld } from '../../test/world.js';
import { keyIdOf, publicKeyFromBase64, rawPublicKey, signLicence } from './licence-signature.js';
import { machineCodeOf, machineFieldsOf } from './machine-identity.js';
import { DEVELOPMENT_PUBLIC_KEY, developmentPrivateKey } from './trusted-keys.js';

const API = '/portal/rest';
const DAY_MS = 86_400_000;
const DEV_KEY_ID = keyIdOf(publicKeyFromBase64(DEVELOPMENT_PUBLIC_KEY));
const OTHER_MACHINE_CODE = machineCodeOf({ ...TEST_MACHINE, boardSerial: 'BOARD-9999' });

let app: TestApp;
afterEach(() => app?.close());

async function start(env: Record<string, string> = {}): Promise<string> {
  app = await createTestApp(env);
  await app.registerAdmin();
  return app.login();
}

interface Part {
  field: string;
  filename?: string;
  content: Uint8Array | string;
}

/** A multipart/form-data body with any parts (files when they have a file name). */
function multipart(parts: Part[]) {
  const boundary = '----gantryLicenceTest';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.field}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream`
      : `form-data; name="${part.field}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

type Endpoint = 'verify' | 'upload';

function post(endpoint: Endpoint, token: string, parts: Part[]): Promise<LightMyRequestResponse> {
  const form = multipart(parts);
  return app.app.inject({
    method: 'POST',
    url: `${API}/license/${endpoint}`,
    headers: { ...form.headers, authorization: `Bearer ${token}`, 'accept-language': 'en' },
    payload: form.payload,
  });
}

const send = (endpoint: Endpoint, token: string, content: Uint8Array | string) =>
  post(endpoint, token, [{ field: 'file', filename: 'platform.lic', content }]);

function get(path: string, token: string | undefined): Promise<LightMyRequestResponse> {
  return app.app.inject({
    method: 'GET',
    url: `${path.startsWith('/portal') ? '' : API}${path}`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'accept-language': 'en' },
  });
}

function postJson(path: string, token: string, payload: object): Promise<LightMyRequestResponse> {
  return app.app.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    payload,
  });
}

const documentOf = (text: string) => (JSON.parse(text) as { document: LicenceDocument }).document;

/** The same licence document signed with another key. */
function resigned(text: string, key: KeyObject): string {
  return signLicence(documentOf(text), key);
}

function vendorKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicBase64: rawPublicKey(publicKey).toString('base64'), keyId: keyIdOf(publicKey) };
}

/** Everything a refused upload must leave alone: the licence row, history, audit, users, projects, info. */
async function state(token: string) {
  const world = await readWorld(app);
  const info = await get('/license/info', token);
  return { ...world, sessions: [], info: [info.statusCode, info.body] };
}

async function historyRows() {
  return queryRows<{ licence_id: string; applied_by: string; machine_code: string }>(
    app.database.db,
    sql`select * from licence_history order by time, id`,
  );
}

function tenantBody(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: `Tenant ${id}`,
    type: 1,
    industry: 'coal',
    grant: grant(app),
    password: wire(TENANT_PASSWORD),
    password1: wire(TENANT_PASSWORD),
    ...overrides,
  };
}

describe('license/machine and license/info', () => {
  it("answers this machine's code and §3 identity, and 404 licenceMissing before any licence", async () => {
    const admin = await start();
    const machine = await get('/license/machine', admin);
    expect(machine.statusCode).toBe(200);
    expect(machine.json()).toEqual({ machineCode: TEST_MACHINE_CODE, machine: machineFieldsOf(TEST_MACHINE) });
    const info = await get('/license/info', admin);
    expect(info.statusCode).toBe(404);
    expect(info.json()).toMatchObject({ code: 'licenceMissing', message: 'No platform licence has been uploaded' });
    const project = await postJson(`${SPM_URL}/project`, admin, projectBody(app));
    expect(project.statusCode).toBe(400);
    expect(project.json()).toMatchObject({
      code: 'licenceMissing',
      message: 'upload a licence before adding projects',
      license: 'upload a licence before adding projects',
    });
  });

  it('reports a licence in the database for another machine, not yet valid, or signed by an unknown key', async () => {
    const admin = await start();
    const install = (text: string) => app.services.licence.repo.install(documentOf(text).grant, text);

    await install(licenceText(app, {}, { machineCode: OTHER_MACHINE_CODE }));
    const other = (await get('/license/info', admin)).json();
    expect(other).toMatchObject({ state: 'otherMachine', machineCode: OTHER_MACHINE_CODE, remainingDays: 365 });
    expect(other.reason).toBe(
      `This licence was issued for another machine (${OTHER_MACHINE_CODE}); this machine's code is ${TEST_MACHINE_CODE}`,
    );
    const refused = await postJson(`${SPM_URL}/project`, admin, projectBody(app));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'licenceMachine', license: other.reason });
    expect((await get(`${SPM_URL}/login/current/user`, admin)).json().features).toEqual([]);

    await install(licenceText(app, { startTime: day(app, 2) }));
    const future = (await get('/license/info', admin)).json();
    expect(future).toMatchObject({ state: 'notYetValid', reminder: false, remainingDays: 365 });
    expect(future.reason).toBe(`The licence is not valid before ${day(app, 2)}`);
    const tenant = await postJson(`${SPM_URL}/user`, admin, tenantBody('acme'));
    expect(tenant.json()).toMatchObject({ code: 'licenceNotYetValid', license: future.reason });

    const vendor = vendorKey();
    await install(resigned(licenceText(app), vendor.privateKey));
    const untrusted = (await get('/license/info', admin)).json();
    expect(untrusted).toMatchObject({ state: 'untrusted', licenceId: '', keyId: '' });
    expect(untrusted.reason).toBe(`The licence was signed by a key this server does not trust (${vendor.keyId})`);

    const signature = 'The licence signature is invalid: the file was altered or not signed by a trusted key';
    const good = licenceText(app, {}, { id: 'L-db' });
    // The grant column edited in the database: the signed file no longer backs it.
    await app.services.licence.repo.install({ ...documentOf(good).grant, userCount: 9_999_999 }, good);
    expect((await get('/license/info', admin)).json()).toMatchObject({ state: 'untrusted', reason: signature });
    const raised = await postJson(`${SPM_URL}/user`, admin, tenantBody('acme'));
    expect(raised.json()).toMatchObject({ code: 'licenceUntrusted', license: signature });
    // The stored file itself altered.
    await install(good.replace('"userCount": 1000', '"userCount": 1001'));
    expect((await get('/license/info', admin)).json()).toMatchObject({ state: 'untrusted', reason: signature });

    await install(good);
    expect((await get('/license/info', admin)).json()).toMatchObject({
      state: 'valid',
      reason: null,
      licenceId: 'L-db',
    });
  });

  it("tells a tenant refused for a licence of another machine neither machine's code (license/machine is the administrator's)", async () => {
    const admin = await start();
    expect((await send('upload', admin, licenceText(app, { features: ['gis', 'Oauth'] }))).statusCode).toBe(200);
    await createTenant(app, admin, 'acme', { grant: grant(app, { features: ['gis', 'Oauth'] }) });
    const tenant = await app.login('acme', TENANT_PASSWORD);
    const own = await postJson(`${SPM_URL}/project`, tenant, projectBody(app, { id: 'p1' }));
    expect(own.statusCode).toBe(200);
    const moved = licenceText(app, { features: ['gis', 'Oauth'] }, { machineCode: OTHER_MACHINE_CODE });
    await app.services.licence.repo.install(documentOf(moved).grant, moved);

    const hidden = 'The platform licence was issued for another machine; ask the administrator to update it';
    const created = await postJson(`${SPM_URL}/project`, tenant, projectBody(app, { id: 'p2' }));
    const sso = await app.app.inject({
      method: 'PUT',
      url: `${SPM_URL}/project/p1`,
      headers: { authorization: `Bearer ${tenant}`, 'accept-language': 'en' },
      payload: projectBody(app, { hasSSO: true }),
    });
    for (const response of [created, sso]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'licenceMachine', message: hidden, license: hidden });
      expect(response.body).not.toContain(TEST_MACHINE_CODE);
      expect(response.body).not.toContain(OTHER_MACHINE_CODE);
    }
    const forAdmin = await postJson(`${SPM_URL}/project`, admin, projectBody(app));
    expect(forAdmin.json()).toMatchObject({ code: 'licenceMachine' });
    expect(forAdmin.body).toContain(TEST_MACHINE_CODE);
  });

  it('a grant column raised in the database does not raise what tenant and platform-project edits may take', async () => {
    const admin = await start();
    const good = licenceText(app, { userCount: 20 });
    expect((await send('upload', admin, good)).statusCode).toBe(200);
    await createTenant(app, admin, 'acme', { grant: grant(app, { userCount: 10 }) });
    expect((await postJson(`${SPM_URL}/project`, admin, projectBody(app))).statusCode).toBe(200);
    const before = await readWorld(app);
    await app.services.licence.repo.install({ ...documentOf(good).grant, userCount: 9_999_999 }, good);

    const tenantEdit = await app.call('PATCH', `${SPM_URL}/user/acme`, admin, {
      grant: grant(app, { userCount: 5000 }),
    });
    expect(tenantEdit.statusCode).toBe(400);
    expect(tenantEdit.json()).toMatchObject({
      code: 'licenceUntrusted',
      license: translate('licence.signature', 'zh_Hans'),
    });
    const [project] = before.projects;
    const projectEdit = await app.call('PUT', `${SPM_URL}/project/${project?.id}`, admin, {
      ...projectBody(app),
      grant: grant(app, { userCount: 5000, flow: { tableCount: 2 }, features: ['gis'] }),
    });
    expect(projectEdit.statusCode).toBe(400);
    expect(projectEdit.json()).toMatchObject({ code: 'licenceUntrusted' });
    const after = await readWorld(app);
    expect({ users: after.users, projects: after.projects }).toEqual({
      users: before.users,
      projects: before.projects,
    });
  });

  it('reminds when fewer than 14 days remain, not at 14 (the clock moves a day)', async () => {
    const admin = await start();
    expect((await send('upload', admin, licenceText(app, { validityPeriod: 14 }))).statusCode).toBe(200);
    expect((await get('/license/info', admin)).json()).toMatchObject({
      state: 'valid',
      remainingDays: 14,
      reminder: false,
    });
    app.advance(DAY_MS);
    const admin2 = await app.login();
    expect((await get('/license/info', admin2)).json()).toMatchObject({
      state: 'valid',
      remainingDays: 13,
      reminder: true,
    });
    expect((await send('upload', admin2, licenceText(app, { validityPeriod: 15 }))).statusCode).toBe(200);
    expect((await get('/license/info', admin2)).json()).toMatchObject({ remainingDays: 15, reminder: false });
  });

  it('an ended platform licence refuses new projects and tenants with the reason, and grants no features', async () => {
    const admin = await start();
    expect((await send('upload', admin, licenceText(app, { validityPeriod: 3 }))).statusCode).toBe(200);
    await createTenant(app, admin, 'acme', { grant: grant(app, { validityPeriod: 3 }) });
    const tenant = await app.login('acme', TENANT_PASSWORD);
    expect((await get(`${SPM_URL}/login/current/user`, tenant)).json().features).toEqual(['DST', 'gis']);
    const end = day(app, 3);

    app.advance(2 * DAY_MS);
    const stillValid = await app.login();
    expect((await get('/license/info', stillValid)).json()).toMatchObject({ state: 'valid', remainingDays: 1 });
    app.advance(DAY_MS);
    const later = await app.login();
    const info = (await get('/license/info', later)).json();
    expect(info).toMatchObject({ state: 'expired', remainingDays: 0, reminder: false });
    expect(info.reason).toBe(`The licence expired on ${end}`);

    const project = await postJson(`${SPM_URL}/project`, later, projectBody(app));
    expect(project.statusCode).toBe(400);
    expect(project.json()).toEqual({
      code: 'licenceExpired',
      message: `The licence expired on ${end}`,
      license: `The licence expired on ${end}`,
    });
    const tenantCall = await postJson(
      `${SPM_URL}/user`,
      later,
      tenantBody('beta', { grant: grant(app, { validityPeriod: 1 }) }),
    );
    expect(tenantCall.statusCode).toBe(400);
    expect(tenantCall.json()).toMatchObject({ code: 'licenceExpired', license: `The licence expired on ${end}` });
    expect((await readWorld(app)).users.map((u) => u.id)).toEqual(['acme', 'admin']);
    expect((await readWorld(app)).projects).toEqual([]);

    const me = (await get(`${SPM_URL}/login/current/user`, later)).json();
    expect(me).toMatchObject({ features: [], rights: ['log.view', 'log.export'] });
    const tenantLater = await app.login('acme', TENANT_PASSWORD);
    expect((await get(`${SPM_URL}/login/current/user`, tenantLater)).json().features).toEqual([]);
  });
});

describe('license/verify and license/upload', () => {
  it('verify says what a file would change and changes nothing', async () => {
    const admin = await start();
    const text = licenceText(app, {}, { id: 'L-verify' });
    const before = await state(admin);
    const verified = await send('verify', admin, text);
    expect(verified.statusCode).toBe(200);
    const body = verified.json();
    expect(body).toMatchObject({
      applied: false,
      licence: {
        licenceId: 'L-verify',
        product: 'platform-spm',
        machineCode: TEST_MACHINE_CODE,
        licensee: 'Test licensee',
        keyId: DEV_KEY_ID,
        development: true,
        grant: { userCount: 1000, remainingTime: 365, endTime: day(app, 365) },
      },
      changes: { first: true, featuresRemoved: [], featuresAdded: ['AI', 'DI', 'DST', 'gis'] },
    });
    expect(body.changes.measures).toContainEqual({ path: 'userCount', before: null, after: 1000 });
    expect(await state(admin)).toEqual(before);
    expect((await get('/license/info', admin)).statusCode).toBe(404);
  });

  it('upload installs the file, and each applied licence adds one history row and one audit entry', async () => {
    const admin = await start();
    const first = licenceText(app, {}, { id: 'L-1' });
    const applied = await send('upload', admin, first);
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({ applied: true, licence: { licenceId: 'L-1' }, changes: { first: true } });
    const info = (await get('/license/info', admin)).json();
    expect(info).toMatchObject({
      id: 'platform-spm',
      licenceId: 'L-1',
      state: 'valid',
      reason: null,
      remainingDays: 365,
      reminder: false,
      development: true,
    });
    const rows = await queryRows<{ time: string | Date }>(app.database.db, sql`select time from licence_history`);
    expect(rows.map((r) => new Date(r.time).toISOString())).toEqual([info.installedAt]);
    const stored = (await readWorld(app)).licences;
    expect(stored).toHaveLength(1);
    expect(stored[0]?.document).toEqual({ text: first });
    expect((await historyRows()).map((r) => [r.licence_id, r.applied_by, r.machine_code])).toEqual([
      ['L-1', 'admin', TEST_MACHINE_CODE],
    ]);
    const audit = await queryRows<{ action: string; object_id: string; detail: { machineCode: string } }>(
      app.database.db,
      sql`select action, object_id, detail from audit_log order by id`,
    );
    expect(audit.map((a) => [a.action, a.object_id, a.detail.machineCode])).toEqual([
      ['licence.apply', 'L-1', TEST_MACHINE_CODE],
    ]);

    app.advance(60_000);
    const renewal = licenceText(
      app,
      { userCount: 2000, features: ['gis', 'DST', 'DI', 'Oauth'], validityPeriod: 400 },
      { id: 'L-2' },
    );
    const second = await send('upload', admin, renewal);
    expect(second.statusCode).toBe(200);
    expect(second.json().changes).toEqual({
      first: false,
      measures: [{ path: 'userCount', before: 1000, after: 2000 }],
      period: [
        { field: 'endTime', before: day(app, 365), after: day(app, 400) },
        { field: 'validityPeriod', before: 365, after: 400 },
      ],
      featuresAdded: ['Oauth'],
      featuresRemoved: ['AI'],
    });
    expect((await get('/license/info', admin)).json()).toMatchObject({ licenceId: 'L-2', remainingDays: 400 });
    app.advance(60_000);
    // The same file again is applied again: one more row.
    expect((await send('upload', admin, renewal)).statusCode).toBe(200);
    expect((await historyRows()).map((r) => r.licence_id)).toEqual(['L-1', 'L-2', 'L-2']);
    expect((await readWorld(app)).auditCount).toBe(3);
  });

  it('refuses each bad file with a clear reason and changes nothing, on verify and on upload', async () => {
    const admin = await start();
    const current = licenceText(app, {}, { id: 'L-current' });
    expect((await send('upload', admin, current)).statusCode).toBe(200);
    const before = await state(admin);

    const text = licenceText(app, {}, { id: 'L-next' });
    const file = JSON.parse(text) as { document: LicenceDocument; keyId: string; signature: string };
    const vendor = vendorKey();
    const badDocument = { ...file.document, grant: { ...file.document.grant, userCount: -1 } };
    const badSignature = sign(null, Buffer.from(canonicalJson(badDocument)), developmentPrivateKey()).toString(
      'base64',
    );
    const signatureChar = file.signature[10] === 'A' ? 'B' : 'A';
    const utf8 = Buffer.from(text);
    const at = utf8.indexOf('Test licensee');
    const cases: Array<{ name: string; content: Uint8Array | string; status: number; code: string; message: string }> =
      [
        {
          name: 'one byte of the document changed',
          content: text.replace('"userCount": 1000', '"userCount": 1001'),
          status: 400,
          code: 'licenceSignature',
          message: 'The licence signature is invalid: the file was altered or not signed by a trusted key',
        },
        {
          name: 'a signature byte changed',
          content: text.replace(
            file.signature,
            `${file.signature.slice(0, 10)}${signatureChar}${file.signature.slice(11)}`,
          ),
          status: 400,
          code: 'licenceSignature',
          message: 'The licence signature is invalid: the file was altered or not signed by a trusted key',
        },
        {
          name: 'a whitespace byte changed',
          content: text.replace('\n  "keyId"', '\n\t "keyId"'),
          status: 400,
          code: 'licenceSignature',
          message: 'The licence signature is invalid: the file was altered or not signed by a trusted key',
        },
        {
          name: 'the key order changed',
          content: `${JSON.stringify({ signature: file.signature, keyId: file.keyId, document: file.document }, null, 2)}\n`,
          status: 400,
          code: 'licenceSignature',
          message: 'The licence signature is invalid: the file was altered or not signed by a trusted key',
        },
        {
          name: "another machine's licence",
          content: licenceText(app, {}, { machineCode: OTHER_MACHINE_CODE }),
          status: 400,
          code: 'licenceMachine',
          message: `This licence was issued for another machine (${OTHER_MACHINE_CODE}); this machine's code is ${TEST_MACHINE_CODE}`,
        },
        {
          name: 'an expired licence',
          content: licenceText(app, { startTime: day(app, -30), validityPeriod: 30 }),
          status: 400,
          code: 'licenceExpired',
          message: `The licence expired on ${day(app)}`,
        },
        {
          name: 'a licence not valid yet',
          content: licenceText(app, { startTime: day(app, 1) }),
          status: 400,
          code: 'licenceNotYetValid',
          message: `The licence is not valid before ${day(app, 1)}`,
        },
        {
          name: 'another product',
          content: licenceText(app, {}, { product: 'bi-suite' }),
          status: 400,
          code: 'licenceProduct',
          message: 'This licence is for the product bi-suite, not platform-spm',
        },
        {
          name: 'a key this server does not trust',
          content: resigned(text, vendor.privateKey),
          status: 400,
          code: 'licenceUntrusted',
          message: `The licence was signed by a key this server does not trust (${vendor.keyId})`,
        },
        ...(
          [
            ['not JSON', 'not a licence at all'],
            ['JSON that is not an object', '[1,2,3]\n'],
            ['an extra envelope key', `${JSON.stringify({ ...file, extra: true }, null, 2)}\n`],
            [
              'a valid signature over a document that fails the schema',
              `${JSON.stringify(JSON.parse(canonicalJson({ document: badDocument, keyId: file.keyId, signature: badSignature })), null, 2)}\n`,
            ],
            [
              'bytes that are not UTF-8',
              Buffer.concat([utf8.subarray(0, at), Buffer.from([0xff, 0xfe]), utf8.subarray(at)]),
            ],
            ['Latin-1 text', Buffer.from(text.replace('Test licensee', 'Testé'), 'latin1')],
          ] as Array<[string, Uint8Array | string]>
        ).map(([name, content]) => ({
          name,
          content,
          status: 400,
          code: 'licenceMalformed',
          message: 'The file is not a valid licence file',
        })),
        {
          name: 'a file over 64 KiB',
          content: `${text}${' '.repeat(64 * 1024)}`,
          status: 413,
          code: 'licenceTooLarge',
          message: 'The file is too large to be a licence file',
        },
        { name: 'an empty file', content: '', status: 400, code: 'noFile', message: 'Choose a file to upload' },
      ];
    for (const endpoint of ['verify', 'upload'] as const) {
      for (const c of cases) {
        const label = `${endpoint}: ${c.name}`;
        const response = await send(endpoint, admin, c.content);
        expect(response.statusCode, label).toBe(c.status);
        const body = response.json();
        expect(body.code, label).toBe(c.code);
        expect(body.message, label).toBe(c.message);
        if (c.code.startsWith('licence')) expect(body.license, label).toBe(c.message);
        else expect(body.license, label).toBeUndefined();
      }
      const noFile = await post(endpoint, admin, [{ field: 'note', content: 'hello' }]);
      expect([noFile.statusCode, noFile.json().code], `${endpoint}: no file`).toEqual([400, 'noFile']);
      const twoFiles = await post(endpoint, admin, [
        { field: 'file', filename: 'a.lic', content: text },
        { field: 'file', filename: 'b.lic', content: text },
      ]);
      expect([twoFiles.statusCode, twoFiles.json().code], `${endpoint}: two files`).toEqual([400, 'oneFile']);
      const json = await postJson(`${API}/license/${endpoint}`, admin, { file: text });
      expect([json.statusCode, json.json().code], `${endpoint}: not multipart`).toEqual([400, 'noFile']);
      // Broken forms are the caller's mistake (400), never a server error.
      const head = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.lic"\r\n\r\n';
      for (const [type, payload] of [
        ['multipart/form-data; boundary=xyz', 'not a form'],
        ['multipart/form-data; boundary=xyz', `${head}${text}`],
        ['multipart/form-data', `${head}${text}\r\n--xyz--\r\n`],
      ] as Array<[string, string]>) {
        const broken = await app.app.inject({
          method: 'POST',
          url: `${API}/license/${endpoint}`,
          headers: { authorization: `Bearer ${admin}`, 'content-type': type, 'accept-language': 'en' },
          payload,
        });
        expect([broken.statusCode, broken.json().code], `${endpoint}: ${type} ${payload.slice(0, 20)}`).toEqual([
          400,
          'validation',
        ]);
      }
    }
    expect(await state(admin)).toEqual(before);
    expect((await historyRows()).map((r) => r.licence_id)).toEqual(['L-current']);
    // The same file, unchanged, is accepted: each refusal above is the change's.
    expect((await send('verify', admin, text)).statusCode).toBe(200);
    // At exactly 64 KiB the file is read and refused for what it is, not for its size.
    const exact = await send('verify', admin, ' '.repeat(64 * 1024));
    expect([exact.statusCode, exact.json().code]).toEqual([400, 'licenceMalformed']);
  });

  it('refuses a licence granting less than is allocated (409 naming the measure); a renewal may drop features', async () => {
    const admin = await start();
    expect((await send('upload', admin, licenceText(app))).statusCode).toBe(200);
    await createTenant(app, admin, 'acme', { grant: grant(app, { userCount: 600, features: ['gis', 'DST'] }) });
    await createProject(app, admin);
    const tenant = await app.login('acme', TENANT_PASSWORD);
    const features = async (token: string) => (await get(`${SPM_URL}/login/current/user`, token)).json().features;
    expect(await features(tenant)).toEqual(['DST', 'gis']);
    expect(await features(admin)).toEqual(['AI', 'DI', 'DST', 'gis']);
    const before = await state(admin);

    // 600 to the tenant + 2 to the administrator's own project.
    for (const endpoint of ['verify', 'upload'] as const) {
      const users = await send(endpoint, admin, licenceText(app, { userCount: 601 }));
      expect(users.statusCode).toBe(409);
      expect(users.json()).toEqual({
        code: 'licenceTooSmall',
        message: 'The new licence grants 601 for User count, less than is already allocated (602)',
        license: 'The new licence grants 601 for User count, less than is already allocated (602)',
      });
      const points = await send(endpoint, admin, licenceText(app, { dataGathering: { point: 1099 } }));
      expect(points.statusCode).toBe(409);
      expect(points.json().message).toBe(
        'The new licence grants 1099 for Data points, less than is already allocated (1100)',
      );
    }
    expect(await state(admin)).toEqual(before);

    const renewal = await send(
      'upload',
      admin,
      licenceText(app, { userCount: 602, dataGathering: { point: 1100 }, features: ['gis'] }),
    );
    expect(renewal.statusCode).toBe(200);
    expect(renewal.json().changes.featuresRemoved).toEqual(['AI', 'DI', 'DST']);
    expect(await features(tenant)).toEqual(['gis']);
    expect(await features(admin)).toEqual(['gis']);
    // The tenant's own grant is unchanged; what it may use now is cut to the platform's.
    const me = (await get(`${SPM_URL}/login/current/user`, tenant)).json();
    expect(me.grant.features).toEqual(['gis', 'DST']);
  });

  it('allocates tenant grants from the uploaded licence, summed over tenants', async () => {
    const admin = await start();
    expect((await send('upload', admin, licenceText(app, { userCount: 20 }))).statusCode).toBe(200);
    await createTenant(app, admin, 'one', { grant: grant(app, { userCount: 15 }) });
    const over = await postJson(`${SPM_URL}/user`, admin, tenantBody('two', { grant: grant(app, { userCount: 6 }) }));
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('grantInvalid');
    expect(Object.keys(over.json().fields)).toContain('grant.userCount');
    const pool = await get(`${SPM_URL}/login/current/unUse/license?target=tenant`, admin);
    expect(pool.json().available.userCount).toBe(5);
    expect(
      (await postJson(`${SPM_URL}/user`, admin, tenantBody('two', { grant: grant(app, { userCount: 5 }) }))).statusCode,
    ).toBe(200);
    expect((await send('upload', admin, licenceText(app, { userCount: 30 }))).statusCode).toBe(200);
    expect(
      (await postJson(`${SPM_URL}/user`, admin, tenantBody('three', { grant: grant(app, { userCount: 10 }) })))
        .statusCode,
    ).toBe(200);
    expect((await get('/license/info', admin)).json().allocated.userCount).toBe(30);
  });

  it("adding a project with single sign-on needs the platform licence's Oauth feature", async () => {
    const admin = await start();
    expect((await send('upload', admin, licenceText(app))).statusCode).toBe(200);
    const refused = await postJson(`${SPM_URL}/project`, admin, projectBody(app, { id: 'sso1', hasSSO: true }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 'featureMissing',
      message: 'The licence does not include the feature Oauth',
      license: 'The licence does not include the feature Oauth',
    });
    expect((await readWorld(app)).projects).toEqual([]);
    const plain = await postJson(`${SPM_URL}/project`, admin, projectBody(app, { id: 'plain1', hasSSO: false }));
    expect(plain.statusCode).toBe(200);

    const withOauth = licenceText(app, { features: ['gis', 'DST', 'DI', 'AI', 'Oauth'] });
    expect((await send('upload', admin, withOauth)).statusCode).toBe(200);
    const accepted = await postJson(`${SPM_URL}/project`, admin, projectBody(app, { id: 'sso1', hasSSO: true }));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ id: 'sso1', hasSSO: true });
  });

  it('turning single sign-on on in an edit needs Oauth in the platform licence and in the owning tenant grant', async () => {
    const admin = await start();
    const withOauth = licenceText(app, { features: ['gis', 'DST', 'DI', 'AI', 'Oauth'] });
    expect((await send('upload', admin, withOauth)).statusCode).toBe(200);
    // A platform project: the platform licence alone decides.
    expect((await postJson(`${SPM_URL}/project`, admin, projectBody(app, { id: 'edit1' }))).statusCode).toBe(200);
    const turnedOn = await app.call('PUT', `${SPM_URL}/project/edit1`, admin, projectBody(app, { hasSSO: true }));
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    expect(turnedOn.json()).toMatchObject({ hasSSO: true });

    // A tenant whose own grant lacks Oauth cannot have a single sign-on project, on create or edit.
    const tenant = await postJson(
      `${SPM_URL}/user`,
      admin,
      tenantBody('nooauth', { grant: grant(app, { features: ['gis'] }) }),
    );
    expect(tenant.statusCode, tenant.body).toBe(200);
    const created = await postJson(
      `${SPM_URL}/project`,
      admin,
      projectBody(app, { id: 'tsso', user: 'nooauth', hasSSO: true }),
    );
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ code: 'featureMissing' });
    expect(
      (await postJson(`${SPM_URL}/project`, admin, projectBody(app, { id: 'tplain', user: 'nooauth' }))).statusCode,
    ).toBe(200);
    const edited = await app.call(
      'PUT',
      `${SPM_URL}/project/tplain`,
      admin,
      projectBody(app, { user: 'nooauth', hasSSO: true }),
    );
    expect(edited.statusCode).toBe(400);
    expect(edited.json()).toMatchObject({ code: 'featureMissing' });
    expect((await readWorld(app)).projects.find((p) => p.id === 'tplain')).toMatchObject({ has_sso: false });

    // With Oauth in its grant, the same tenant may.
    const patched = await app.call('PATCH', `${SPM_URL}/user/nooauth`, admin, {
      grant: grant(app, { features: ['gis', 'Oauth'] }),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const allowed = await app.call(
      'PUT',
      `${SPM_URL}/project/tplain`,
      admin,
      projectBody(app, { user: 'nooauth', hasSSO: true }),
    );
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('refuses a licence file with a byte-order mark in front (the text must be exactly as signed)', async () => {
    const admin = await start();
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(licenceText(app))]);
    const response = await send('upload', admin, withBom);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'licenceMalformed' });
    expect((await readWorld(app)).licences).toEqual([]);
  });

  it('checks a feature inside the caller transaction when given it (no wait on PGlite)', async () => {
    await start();
    const withOauth = licenceText(app, { features: ['Oauth'] });
    await app.services.licence.repo.install(documentOf(withOauth).grant, withOauth);
    const platform = app.services.platformLicence;
    const outcome = await app.database.db.transaction(async (tx) => {
      await platform.assertFeature('Oauth', { db: tx });
      return platform.assertFeature('kafka', { db: tx }).then(
        () => 'accepted',
        (error: { code?: string }) => error.code,
      );
    });
    expect(outcome).toBe('featureMissing');
  });
});

describe('trusted keys', () => {
  it('in production refuses a development-signed licence and accepts one signed by a configured key', async () => {
    const vendor = vendorKey();
    const admin = await start({ NODE_ENV: 'production', GANTRY_LICENCE_PUBLIC_KEYS: vendor.publicBase64 });
    const dev = await send('upload', admin, licenceText(app));
    expect(dev.statusCode).toBe(400);
    expect(dev.json()).toMatchObject({
      code: 'licenceDevelopment',
      license: 'A development licence is not accepted in production',
    });
    expect((await readWorld(app)).licences).toEqual([]);

    const signed = resigned(licenceText(app, {}, { id: 'L-vendor' }), vendor.privateKey);
    const applied = await send('upload', admin, signed);
    expect(applied.statusCode).toBe(200);
    expect(applied.json().licence).toMatchObject({ licenceId: 'L-vendor', keyId: vendor.keyId, development: false });
    expect((await get('/license/info', admin)).json()).toMatchObject({ state: 'valid', development: false });

    // A development licence put straight into the database grants nothing in production.
    const devText = licenceText(app);
    await app.services.licence.repo.install(documentOf(devText).grant, devText);
    const info = (await get('/license/info', admin)).json();
    expect(info).toMatchObject({ state: 'untrusted', reason: 'A development licence is not accepted in production' });
    expect((await postJson(`${SPM_URL}/project`, admin, projectBody(app))).json().code).toBe('licenceUntrusted');
  });

  it('with no vendor key configured is an evaluation install: production accepts the development licence and says so', async () => {
    const admin = await start({ NODE_ENV: 'production' });
    expect((await get(`${SPM_URL}/login/current/user`, admin)).json()).toMatchObject({ evaluation: true });
    const applied = await send('upload', admin, licenceText(app));
    expect(applied.statusCode).toBe(200);
    expect(applied.json().licence).toMatchObject({ keyId: DEV_KEY_ID, development: true });
    expect((await get('/license/info', admin)).json()).toMatchObject({ state: 'valid', development: true });
    expect((await postJson(`${SPM_URL}/project`, admin, projectBody(app))).statusCode).toBe(200);
    await app.close();

    // Configuring the vendor key ends the evaluation: the console is told, and the development licence refused.
    const vendor = vendorKey();
    const configured = await start({ NODE_ENV: 'production', GANTRY_LICENCE_PUBLIC_KEYS: vendor.publicBase64 });
    expect((await get(`${SPM_URL}/login/current/user`, configured)).json()).toMatchObject({ evaluation: false });
    expect((await send('verify', configured, licenceText(app))).json()).toMatchObject({ code: 'licenceDevelopment' });
  });

  it('refuses a freshly generated key until it is configured, then accepts its licence', async () => {
    const vendor = vendorKey();
    let admin = await start();
    const signed = resigned(licenceText(app, {}, { id: 'L-fresh' }), vendor.privateKey);
    const refused = await send('upload', admin, signed);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'licenceUntrusted',
      message: `The licence was signed by a key this server does not trust (${vendor.keyId})`,
    });
    await app.close();

    admin = await start({ GANTRY_LICENCE_PUBLIC_KEYS: vendor.publicBase64 });
    const accepted = await send('upload', admin, signed);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().licence).toMatchObject({ licenceId: 'L-fresh', keyId: vendor.keyId, development: false });
    // The development key still works outside production next to the configured one.
    expect((await send('verify', admin, licenceText(app))).statusCode).toBe(200);
  });
});

describe('who may', () => {
  it("gives tenants 403 on the administrator's licence calls, and rights only to the administrator", async () => {
    const admin = await start();
    expect((await send('upload', admin, licenceText(app))).statusCode).toBe(200);
    const tenant = await signedInTenant(app, admin, 'acme');
    const text = licenceText(app, {}, { id: 'L-tenant' });
    const before = await state(admin);
    for (const [name, response] of [
      ['machine', await get('/license/machine', tenant)],
      ['info', await get('/license/info', tenant)],
      ['verify', await send('verify', tenant, text)],
      ['upload', await send('upload', tenant, text)],
    ] as const) {
      expect([response.statusCode, response.json().code], name).toEqual([403, 'forbidden']);
    }
    for (const [name, response] of [
      ['machine', await get('/license/machine', undefined)],
      [
        'upload',
        await app.app.inject({
          method: 'POST',
          url: `${API}/license/upload`,
          ...multipart([{ field: 'file', filename: 'a.lic', content: text }]),
        }),
      ],
    ] as const) {
      expect(response.statusCode, name).toBe(401);
    }
    expect(await state(admin)).toEqual(before);
    expect((await get(`${SPM_URL}/login/current/user`, admin)).json().rights).toEqual(['log.view', 'log.export']);
    expect((await get(`${SPM_URL}/login/current/user`, tenant)).json().rights).toEqual([]);
  });
});
