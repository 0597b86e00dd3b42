/**
 * Tenant isolation, as a generated matrix: every tenant, project, licence, certificate, usage,
 * dashboard and audit call of docs/API.md × caller (anonymous, tenant A, tenant B, administrator,
 * a disabled tenant's old token) × owner of the object named (A's, B's, the platform's, none).
 * Each cell asserts the status, that a tenant's answer holds nothing of anyone else's, and that the
 * database and the data directory are unchanged afterwards, except, for an allowed change, the
 * target itself. Successful changes act on throwaway objects, so the shared world stays as set up.
 * To extend: add a call to CALLS (or a row to one of the tables below) with its expected status.
 * Every project-scoped route (the project gate's route table, not a list) is a row of the project
 * gate matrix at the end: anonymous / other tenant / owner / administrator / disabled project / none.
 */
import { COLLECTIONS } from '@gantry/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../modules/users/user.repository.js';
import type { GatedProject, GatedRoute } from '../plugins/project-gate.js';
import {
  adminWithLicence,
  createTenant,
  grant,
  licenceText,
  projectBody,
  SPM_URL,
  TENANT_PASSWORD,
} from '../test/fixtures.js';
import { selfSigned } from '../test/self-signed.js';
import { ADMIN_PASSWORD, createTestApp, multipartFile, type TestApp, wire } from '../test/test-app.js';
import { readWorld, type World, worldBesides } from '../test/world.js';
import {
  auditTenantOf,
  can,
  mayCreateProjectType,
  mayReportUsageWithoutKey,
  maySeeMachineCodes,
  mayUpdateUser,
  overseesTenants,
  projectOwnerFor,
} from './policy.js';

type Role = 'anonymous' | 'tenantA' | 'tenantB' | 'admin' | 'disabledOld';
type Owner = 'A' | 'B' | 'platform' | 'none';
/** The signed-in callers the expectations distinguish. */
type Who = 'A' | 'B' | 'admin';
type Kind = 'tenant' | 'project' | 'owner';

const ROLES: Role[] = ['anonymous', 'tenantA', 'tenantB', 'admin', 'disabledOld'];
const OWNERS: Owner[] = ['A', 'B', 'platform', 'none'];
const WHO: Partial<Record<Role, Who>> = { tenantA: 'A', tenantB: 'B', admin: 'admin' };

/** The shared world: ids by kind and owner. 'owner' ids are what `user` / `owner=` name. */
const IDS: Record<Kind, Record<Owner, string>> = {
  tenant: { A: 'tena', B: 'tenb', platform: 'admin', none: 'tenx' },
  project: { A: 'pa', B: 'pb', platform: 'pp', none: 'pnosuch' },
  owner: { A: 'tena', B: 'tenb', platform: 'admin', none: 'tenx' },
};
/** Names that must never appear in an answer to anyone but their owner (and the administrator). */
const SECRETS: Record<Who, string[]> = {
  A: ['Secret tenant A', 'Secret project A'],
  B: ['Secret tenant B', 'Secret project B'],
  admin: ['Secret platform project'],
};
const own = (who: Who): Owner => (who === 'admin' ? 'platform' : who);

// Uploads are checked (a matching, current pair): a real self-signed one.
const PAIR = selfSigned('plant.example.com');
const KEY = PAIR.key.toString();
const PEM = PAIR.pem.toString();
function certificateForm(id: string) {
  const boundary = '----gantryisolation';
  const part = (name: string, value: string, file?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${value}\r\n`;
  return {
    payload: Buffer.from(
      `${part('id', id)}${part('domain', '')}${part('certKey', KEY, 'site.key')}${part('certPem', PEM, 'site.pem')}--${boundary}--\r\n`,
    ),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

let app: TestApp;
const tokens: Partial<Record<Role, string>> = {};
/** Runtime keys of the shared projects, by owner. */
const runtimeKeys: Partial<Record<Owner, string>> = {};
let fresh = 0;

const q = (query: unknown) => encodeURIComponent(JSON.stringify(query));
const small = () => grant(app, { userCount: 1, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] });

function send(
  role: Role,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const token = tokens[role];
  return app.app.inject({
    method,
    url: url.startsWith('/portal/') ? url : `${SPM_URL}${url}`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok(response: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const done = await response;
  if (done.statusCode >= 300) throw new Error(`set-up call failed: ${done.statusCode} ${done.body}`);
  return done;
}

/** A throwaway object of the same kind and owner, for a cell whose change is allowed. */
async function freshTarget(kind: Kind, owner: Owner): Promise<string> {
  fresh++;
  if (kind === 'project') {
    const id = `fp${fresh}`;
    await ok(send('admin', 'POST', '/project', projectBody(app, { id, user: IDS.owner[owner], grant: small() })));
    return id;
  }
  if (kind === 'tenant' && (owner === 'A' || owner === 'B')) {
    const id = `ft${fresh}`;
    await createTenant(app, tokens.admin ?? '', id, { grant: small() });
    return id;
  }
  return IDS[kind][owner];
}

interface CallContext {
  role: Role;
  who: Who | undefined;
  id: string;
}
interface Call {
  name: string;
  /** What the id names; absent: the call names no object. */
  kind?: Kind;
  /** Status for a signed-in caller (anonymous and a disabled tenant's old token always get 401). */
  expect: (who: Who, owner: Owner) => number;
  send: (c: CallContext) => Promise<LightMyRequestResponse>;
  /** The call changes its target when allowed (so that is left out of the comparison). */
  writes?: boolean;
  /** An allowed change needs a throwaway target (it disables, deletes, replaces a key…). */
  fresh?: boolean;
  /** It adds rows when allowed. */
  creates?: boolean;
  /** More about a 2xx answer. */
  check?: (body: unknown, who: Who) => void;
}

/** By-id calls a tenant may make on its own objects; anything else is 'not found' (no probing). */
const scoped =
  (status: number, adminOnPlatform = status) =>
  (who: Who, owner: Owner) => {
    if (owner === 'none') return 404;
    if (who === 'admin') return owner === 'platform' ? adminOnPlatform : status;
    return owner === who ? status : 404;
  };
/** Administrator-only changes of a tenant record: 403 for tenants, 404 for no tenant (or the administrator). */
const adminOnTenant = (who: Who, owner: Owner) => (who !== 'admin' ? 403 : owner === 'A' || owner === 'B' ? 200 : 404);
/** Calls that name no object. */
const everyone = (status: number) => () => status;
const adminOnly = (status: number) => (who: Who) => (who === 'admin' ? status : 403);
/** An owner id in a body or query: a tenant names only itself; the administrator any existing owner. */
const ownerNamed = (status: number, unknown: number) => (who: Who, owner: Owner) => {
  if (who === 'admin') return owner === 'none' ? unknown : status;
  return owner === who ? status : 403;
};

const ids = (body: unknown) => (body as Array<{ id: string }>).map((row) => row.id);
const tableSetting = { columns: ['name'], density: 'compact', pageSize: 10 };

const CALLS: Call[] = [
  // Tenants (user…)
  { name: 'GET user/{id}', kind: 'tenant', expect: scoped(200), send: (c) => send(c.role, 'GET', `/user/${c.id}`) },
  {
    name: 'PATCH user/{id} fields',
    kind: 'tenant',
    expect: adminOnTenant,
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PATCH', `/user/${c.id}`, { remarks: 'changed' }),
  },
  {
    name: 'PATCH user/{id} tableSettings',
    kind: 'tenant',
    expect: (who, owner) => (who === 'admin' ? (owner === 'none' ? 404 : 200) : owner === who ? 200 : 403),
    writes: true,
    send: (c) => send(c.role, 'PATCH', `/user/${c.id}`, { tableSettings: { project: tableSetting } }),
  },
  {
    name: 'PATCH user/{id}/status false',
    kind: 'tenant',
    expect: adminOnTenant,
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PATCH', `/user/${c.id}/status`, { status: false }),
  },
  {
    name: 'PATCH user/{id}/status true',
    kind: 'tenant',
    expect: adminOnTenant,
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PATCH', `/user/${c.id}/status`, { status: true }),
  },
  {
    name: 'PATCH user/{id}/disable',
    kind: 'tenant',
    expect: adminOnTenant,
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PATCH', `/user/${c.id}/disable`),
  },
  {
    name: 'PATCH user/{id}/enable',
    kind: 'tenant',
    expect: adminOnTenant,
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PATCH', `/user/${c.id}/enable`, []),
  },
  {
    name: 'DELETE user/{id}',
    kind: 'tenant',
    expect: adminOnTenant,
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'DELETE', `/user/${c.id}`),
  },
  {
    name: 'PUT user/{id}/password',
    kind: 'tenant',
    expect: adminOnTenant,
    writes: true,
    fresh: true,
    send: (c) =>
      send(c.role, 'PUT', `/user/${c.id}/password`, {
        adminPassword: wire(ADMIN_PASSWORD),
        password: wire('Changed123'),
        password1: wire('Changed123'),
      }),
  },
  {
    name: 'GET user?query',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', `/user?query=${q({ withCount: true, limit: 0 })}`),
    check: (body, who) =>
      who === 'admin'
        ? expect(ids(body)).toEqual(expect.arrayContaining(['tena', 'tenb', 'tend']))
        : expect(ids(body)).toEqual([IDS.tenant[who]]),
  },
  {
    name: 'GET user/count',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', '/user/count'),
    check: (body, who) => {
      if (who !== 'admin') expect(body).toEqual({ count: 1 });
    },
  },
  {
    name: 'POST user',
    expect: adminOnly(200),
    writes: true,
    creates: true,
    send: (c) =>
      send(c.role, 'POST', '/user', {
        name: 'New tenant',
        type: 0,
        industry: 'coal',
        grant: small(),
        password: wire(TENANT_PASSWORD),
        password1: wire(TENANT_PASSWORD),
      }),
  },
  {
    name: 'POST user/changepwd',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'POST', '/user/changepwd', { password: wire(ADMIN_PASSWORD) }),
  },

  // Projects
  {
    name: 'GET project/{id}',
    kind: 'project',
    expect: scoped(200),
    send: (c) => send(c.role, 'GET', `/project/${c.id}`),
  },
  {
    name: 'PUT project/{id}',
    kind: 'project',
    expect: scoped(200),
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PUT', `/project/${c.id}`, projectBody(app, { grant: small(), name: 'Edited' })),
  },
  {
    // One owner rule (policy.projectOwnerFor) for creating, moving and reading pools: a tenant
    // naming another owner is refused (403) on its own project; others' projects are not found.
    name: 'PUT project/{id} {user: tenant B} (moves it)',
    kind: 'project',
    expect: (who, owner) => {
      if (owner === 'none') return 404;
      if (who === 'admin') return 200;
      if (owner !== who) return 404;
      return who === 'B' ? 200 : 403;
    },
    writes: true,
    fresh: true,
    send: (c) =>
      send(c.role, 'PUT', `/project/${c.id}`, projectBody(app, { grant: small(), name: 'Moved', user: IDS.owner.B })),
  },
  {
    name: 'PATCH project/{id}/status false',
    kind: 'project',
    expect: scoped(200),
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PATCH', `/project/${c.id}/status`, { status: false }),
  },
  {
    name: 'PATCH project/{id}/status true',
    kind: 'project',
    expect: scoped(200),
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'PATCH', `/project/${c.id}/status`, { status: true }),
  },
  {
    name: 'DELETE project/{id}',
    kind: 'project',
    expect: scoped(200),
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'DELETE', `/project/${c.id}`),
  },
  {
    name: 'POST project/cert',
    kind: 'project',
    expect: scoped(200),
    writes: true,
    fresh: true,
    send: (c) => {
      const form = certificateForm(c.id);
      return send(c.role, 'POST', '/project/cert', form.payload, form.headers);
    },
  },
  {
    name: 'GET project/{id}/cert',
    kind: 'project',
    expect: scoped(200),
    send: (c) => send(c.role, 'GET', `/project/${c.id}/cert`),
  },
  {
    name: 'GET project/_collectionNames',
    kind: 'project',
    expect: scoped(200),
    send: (c) => send(c.role, 'GET', `/project/_collectionNames?projectId=${c.id}`),
  },
  {
    name: 'GET project/{id}/data-stats',
    kind: 'project',
    expect: scoped(200),
    send: (c) => send(c.role, 'GET', `/project/${c.id}/data-stats`),
  },
  {
    name: 'POST project/{id}/runtime-key',
    kind: 'project',
    expect: scoped(200),
    writes: true,
    fresh: true,
    send: (c) => send(c.role, 'POST', `/project/${c.id}/runtime-key`),
  },
  {
    name: 'PUT project/{id}/usage with the caller’s token',
    kind: 'project',
    expect: (who, owner) => (who !== 'admin' ? 401 : owner === 'none' ? 404 : 204),
    writes: true,
    send: (c) => send(c.role, 'PUT', `/project/${c.id}/usage`, { usage: { userCount: 1 } }),
  },
  {
    name: 'PUT project/{id}/usage with the key of the caller’s own project',
    kind: 'project',
    expect: (who, owner) => (who === 'admin' ? (owner === 'none' ? 404 : 204) : owner === who ? 204 : 401),
    writes: true,
    send: (c) =>
      send(
        c.role,
        'PUT',
        `/project/${c.id}/usage`,
        { usage: { userCount: 1 } },
        c.who ? { 'x-project-key': runtimeKeys[own(c.who)] ?? '' } : {},
      ),
  },
  {
    name: 'POST project {user: owner}',
    kind: 'owner',
    expect: ownerNamed(200, 400),
    writes: true,
    creates: true,
    send: (c) => send(c.role, 'POST', '/project', projectBody(app, { grant: small(), user: c.id })),
  },
  {
    name: 'GET project?query',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', `/project?query=${q({ withCount: true, limit: 0 })}`),
    check: (body, who) => {
      if (who === 'admin') {
        expect(ids(body)).toEqual(expect.arrayContaining(['pa', 'pb', 'pp', 'pd']));
        return;
      }
      expect(ids(body)).toContain(IDS.project[who]);
      const owners = (body as Array<{ user: { id: string } }>).map((p) => p.user.id);
      expect(new Set(owners)).toEqual(new Set([IDS.tenant[who]]));
    },
  },
  {
    name: 'GET project/count',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', '/project/count'),
  },
  {
    name: 'GET project/available',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', '/project/available'),
    check: (body, who) => {
      if (who !== 'admin') expect(ids(body)).toContain(IDS.project[who]);
    },
  },

  // Licence
  {
    name: 'GET license/info',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'GET', '/portal/rest/license/info'),
  },
  {
    name: 'GET login/current/unUse/license',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', '/login/current/unUse/license'),
    check: (body, who) =>
      expect((body as { parentKind: string }).parentKind).toBe(who === 'admin' ? 'platform' : 'tenant'),
  },
  {
    name: 'GET login/current/unUse/license?owner=',
    kind: 'owner',
    expect: ownerNamed(200, 400),
    send: (c) => send(c.role, 'GET', `/login/current/unUse/license?target=project&owner=${c.id}`),
  },
  {
    name: 'GET login/current/unUse/license?target=tenant&except=',
    kind: 'owner',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'GET', `/login/current/unUse/license?target=tenant&except=${c.id}`),
  },

  {
    name: 'GET login/current/user',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', '/login/current/user'),
    check: (body, who) => {
      const user = body as { rights: string[]; grant: { userCount: number } | null };
      expect(user.rights).toEqual(who === 'admin' ? ['log.view', 'log.export'] : []);
      expect(user.grant?.userCount).toBe(who === 'admin' ? 1000 : 200);
    },
  },
  {
    name: 'GET license/machine',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'GET', '/portal/rest/license/machine'),
  },
  {
    name: 'POST license/verify (valid file: nothing may change)',
    expect: adminOnly(200),
    send: (c) => {
      const form = multipartFile('file', 'platform.lic', Buffer.from(licenceText(app)), 'application/octet-stream');
      return send(c.role, 'POST', '/portal/rest/license/verify', form.payload, form.headers);
    },
  },
  {
    name: 'POST license/upload (tampered file: refused, nothing may change)',
    expect: adminOnly(400),
    send: (c) => {
      const text = licenceText(app).replace('"userCount": 1000', '"userCount": 9000');
      const form = multipartFile('file', 'platform.lic', Buffer.from(text), 'application/octet-stream');
      return send(c.role, 'POST', '/portal/rest/license/upload', form.payload, form.headers);
    },
  },
  {
    name: 'GET core/license/machineInfo?query',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'GET', `/portal/rest/core/license/machineInfo?query=${q({ withCount: true })}`),
  },
  {
    name: 'GET core/license/machineInfo/count',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'GET', '/portal/rest/core/license/machineInfo/count'),
  },
  {
    name: 'GET core/license/machineInfo/export',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'GET', '/portal/rest/core/license/machineInfo/export'),
  },
  {
    name: 'GET core/license/machineInfo/{unknown id}',
    expect: adminOnly(404),
    send: (c) => send(c.role, 'GET', '/portal/rest/core/license/machineInfo/nosuch'),
  },

  // Dashboard and audit
  {
    name: 'GET dashboard',
    expect: everyone(200),
    send: (c) => send(c.role, 'GET', '/dashboard'),
    check: (body, who) => {
      const board = body as { tenants: unknown; licence: { kind: string }; audit: Array<{ tenantId: string | null }> };
      if (who === 'admin') {
        expect(board.licence.kind).toBe('platform');
        return;
      }
      expect(board.tenants).toBeNull();
      expect(board.licence.kind).toBe('tenant');
      expect(board.audit.every((entry) => entry.tenantId === IDS.tenant[who])).toBe(true);
    },
  },
  {
    name: 'GET audit?query',
    expect: adminOnly(200),
    send: (c) => send(c.role, 'GET', `/audit?query=${q({ withCount: true })}`),
  },
  { name: 'GET audit/count', expect: adminOnly(200), send: (c) => send(c.role, 'GET', '/audit/count') },
];

interface Cell {
  call: Call;
  role: Role;
  owner: Owner | '-';
  status: number;
  label: string;
}
const CELLS: Cell[] = CALLS.flatMap((call) =>
  ROLES.flatMap((role) =>
    (call.kind ? OWNERS : (['-'] as const)).map((owner): Cell => {
      const who = WHO[role];
      const status = who ? call.expect(who, owner === '-' ? 'none' : owner) : 401;
      return { call, role, owner, status, label: `${call.name} · ${role} · owner ${owner} → ${status}` };
    }),
  ),
);

/** The other callers' secrets a tenant must never be shown. */
function assertNoForeignSecrets(who: Who | undefined, body: string): void {
  if (!who || who === 'admin') return;
  for (const other of ['A', 'B', 'admin'] as const) {
    if (other === who) continue;
    for (const secret of SECRETS[other]) expect(body, `leaks ${secret}`).not.toContain(secret);
  }
}

async function assertUnchangedExceptTarget(before: World, cell: Cell, target: string | undefined) {
  const after = await readWorld(app);
  const changed = cell.status < 300 && cell.call.writes;
  if (!changed) {
    expect(after).toEqual(before);
    return;
  }
  expect(worldBesides(after, { target, auditCount: 0, ...(cell.call.creates ? { keep: before } : {}) })).toEqual(
    worldBesides(before, { target, auditCount: 0 }),
  );
}

// Built at collection time: the project gate's route table generates the matrix below.
app = await createTestApp();
beforeAll(async () => {
  tokens.admin = await adminWithLicence(app);
  const tenantGrant = grant(app, { userCount: 200, flow: { tableCount: 200 }, dataGathering: { point: 500 } });
  for (const [id, name] of [
    ['tena', 'Secret tenant A'],
    ['tenb', 'Secret tenant B'],
    ['tend', 'Disabled tenant'],
  ] as const) {
    await createTenant(app, tokens.admin, id, { name, grant: tenantGrant });
  }
  tokens.tenantA = await app.login('tena', TENANT_PASSWORD);
  tokens.tenantB = await app.login('tenb', TENANT_PASSWORD);
  tokens.disabledOld = await app.login('tend', TENANT_PASSWORD);
  for (const [id, role, name] of [
    ['pa', 'tenantA', 'Secret project A'],
    ['pb', 'tenantB', 'Secret project B'],
    ['pp', 'admin', 'Secret platform project'],
    ['pd', 'disabledOld', 'Project of the disabled tenant'],
  ] as const) {
    await ok(send(role, 'POST', '/project', projectBody(app, { id, name, grant: small() })));
  }
  for (const owner of ['A', 'B', 'platform'] as const) {
    const id = IDS.project[owner];
    const form = certificateForm(id);
    await ok(send('admin', 'POST', '/project/cert', form.payload, form.headers));
    runtimeKeys[owner] = (await ok(send('admin', 'POST', `/project/${id}/runtime-key`))).json<{ key: string }>().key;
  }
  expect((await send('disabledOld', 'GET', '/project/pd')).statusCode).toBe(200);
  await ok(send('admin', 'PATCH', '/user/tend/disable'));
}, 120_000);
afterAll(() => app.close());

describe(`isolation matrix (${CELLS.length} cells)`, () => {
  it.each(CELLS.map((cell) => [cell.label, cell] as const))('%s', async (_label, cell) => {
    const { call, role } = cell;
    const who = WHO[role];
    const allowedChange = cell.status < 300 && call.writes;
    const owner = cell.owner === '-' ? 'none' : cell.owner;
    const target = call.kind
      ? allowedChange && call.fresh
        ? await freshTarget(call.kind, owner)
        : IDS[call.kind][owner]
      : undefined;
    const before = await readWorld(app);

    const response = await call.send({ role, who, id: target ?? '' });

    expect(response.statusCode, response.body).toBe(cell.status);
    if (cell.status >= 400) expect(response.json<{ code: string }>().code).toBeTruthy();
    assertNoForeignSecrets(who, response.body);
    if (cell.status < 300 && call.check && who && response.body) call.check(response.json(), who);
    await assertUnchangedExceptTarget(before, cell, target);
  });
});

/** Filters that try to reach other tenants' rows: a tenant's answer must be the administrator's, cut to its own. */
describe('list and count filters stay inside the tenant', () => {
  const FILTERS: Array<[string, (self: string, other: string) => unknown]> = [
    ['the other owner', (_s, o) => ({ user: o })],
    ['ne self', (s) => ({ user: { ne: s } })],
    ['or with the other owner', (s, o) => ({ or: [{ user: o }, { user: s }] })],
    ['$or', (_s, o) => ({ $or: [{ user: o }] })],
    ['nor self', (s) => ({ nor: [{ user: s }] })],
    ['not self', (s) => ({ not: { user: s } })],
    ['field not', (s) => ({ user: { not: { eq: s } } })],
    ['in all owners', (s, o) => ({ user: { in: [o, 'admin', s] } })],
    ['nin self', (s) => ({ user: { nin: [s] } })],
    ['like anything', () => ({ id: { like: '.*' } })],
    ['always true or', () => ({ or: [{ id: { ne: null } }, { id: null }] })],
    ['nested', (s, o) => ({ and: [{ or: [{ user: o }] }, { not: { user: s } }] })],
    ['the platform', () => ({ user: 'admin' })],
    ['empty nor', () => ({ nor: [] })],
    ['empty or', () => ({ or: [] })],
    ['id of the other’s object', (_s, o) => ({ or: [{ id: o }, { id: o === 'tenb' ? 'pb' : 'pa' }] })],
  ];
  const cases = (['tenantA', 'tenantB'] as const).flatMap((role) =>
    (['user', 'project'] as const).flatMap((resource) =>
      FILTERS.map(([name, filter]) => ({ role, resource, name, filter, label: `${role} ${resource} · ${name}` })),
    ),
  );

  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, { role, resource, filter }) => {
    const self = role === 'tenantA' ? 'tena' : 'tenb';
    const other = self === 'tena' ? 'tenb' : 'tena';
    const where = filter(self, other);
    const mineOf = (rows: Array<{ id: string; user: string | { id: string } }>) =>
      rows
        .filter((r) => (typeof r.user === 'string' ? r.user : r.user.id) === self)
        .map((r) => r.id)
        .sort();
    const before = await readWorld(app);
    const asAdmin = await send('admin', 'GET', `/${resource}?query=${q({ filter: where, limit: 0 })}`);
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    const expected = mineOf(asAdmin.json());

    const list = await send(role, 'GET', `/${resource}?query=${q({ filter: where, limit: 0, withCount: true })}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(ids(list.json()).sort()).toEqual(expected);
    expect(list.headers.count).toBe(String(expected.length));
    assertNoForeignSecrets(role === 'tenantA' ? 'A' : 'B', list.body);
    for (const query of [where, { filter: where }]) {
      const count = await send(role, 'GET', `/${resource}/count?query=${q(query)}`);
      expect(count.json(), JSON.stringify(query)).toEqual({ count: expected.length });
    }
    expect(await readWorld(app)).toEqual(before);
  });
});

describe('mass assignment and foreign references are refused and change nothing', () => {
  const BASE: Array<{
    label: string;
    role: Role;
    method: 'POST' | 'PUT' | 'PATCH';
    url: string;
    body: () => unknown;
    status: number;
  }> = [
    ...(
      [
        ['user: the other tenant', { user: 'tenb' }, 403],
        ['user: admin', { user: 'admin' }, 403],
        ['user: no such tenant', { user: 'tenx' }, 403],
        ['status', { status: false }, 400],
        ['isAdmin', { isAdmin: true }, 400],
        ['passwordHash', { passwordHash: 'x' }, 400],
        ['userId', { userId: 'tenb' }, 400],
        ['createTime', { createTime: '2020-01-01T00:00:00Z' }, 400],
        ['runtimeKeyHash', { runtimeKeyHash: 'x' }, 400],
        ['license (usage)', { license: { userCount: 0 } }, 400],
        ['usage', { usage: { userCount: 0 } }, 400],
        ['certificate', { certificate: { key: 'a.key', pem: 'a.pem' } }, 400],
        ['online', { online: true }, 400],
        ['_stats_', { _stats_: [{ type: 'plc', count: 1, online: 1 }] }, 400],
      ] as const
    ).flatMap(([name, extra, status]) => [
      {
        label: `tenant A POST project with ${name}`,
        role: 'tenantA' as const,
        method: 'POST' as const,
        url: '/project',
        body: () => projectBody(app, { grant: small(), ...extra }),
        status,
      },
      {
        label: `tenant A PUT its own project with ${name}`,
        role: 'tenantA' as const,
        method: 'PUT' as const,
        url: '/project/pa',
        body: () => projectBody(app, { grant: small(), ...extra }),
        status,
      },
    ]),
    ...(
      [
        ['grant', () => ({ grant: grant(app, { userCount: 999 }) }), 403],
        [
          'permissions',
          () => ({ permissions: { blankProjects: true, marketTemplates: true, ownTemplates: true } }),
          403,
        ],
        ['name', () => ({ name: 'Mine' }), 403],
        ['tableSettings with grant', () => ({ tableSettings: { t: tableSetting }, grant: grant(app) }), 403],
        ['status', () => ({ status: false }), 400],
        ['isAdmin', () => ({ isAdmin: true }), 400],
        ['id', () => ({ id: 'tenb' }), 400],
        ['user', () => ({ user: 'tenb' }), 400],
        ['passwordHash', () => ({ passwordHash: 'x' }), 400],
        ['password', () => ({ password: wire('Other123'), password1: wire('Other123') }), 400],
        ['protectUrl', () => ({ protectUrl: '/app/dashboard' }), 400],
      ] as const
    ).map(([name, body, status]) => ({
      label: `tenant A PATCH user/tena with ${name}`,
      role: 'tenantA' as const,
      method: 'PATCH' as const,
      url: '/user/tena',
      body,
      status,
    })),
    ...(['isAdmin', 'status', 'id', 'passwordHash', 'createTime'] as const).map((field) => ({
      label: `admin PATCH user/tena with ${field}`,
      role: 'admin' as const,
      method: 'PATCH' as const,
      url: '/user/tena',
      body: () => ({ [field]: field === 'status' || field === 'isAdmin' ? true : 'x' }),
      status: 400,
    })),
    {
      label: 'admin enables tenant A with B’s project',
      role: 'admin',
      method: 'PATCH',
      url: '/user/tena/enable',
      body: () => ['pb'],
      status: 400,
    },
    {
      label: 'admin enables tenant A with its own and B’s project',
      role: 'admin',
      method: 'PATCH',
      url: '/user/tena/enable',
      body: () => ['pa', 'pb'],
      status: 400,
    },
    {
      label: 'admin enables the disabled tenant with A’s project',
      role: 'admin',
      method: 'PATCH',
      url: '/user/tend/enable',
      body: () => ['pd', 'pa'],
      status: 400,
    },
    {
      label: 'tenant A enables itself',
      role: 'tenantA',
      method: 'PATCH',
      url: '/user/tena/enable',
      body: () => ['pa'],
      status: 403,
    },
    {
      label: 'admin moves A’s project to no such tenant',
      role: 'admin',
      method: 'PUT',
      url: '/project/pa',
      body: () => projectBody(app, { grant: small(), name: 'Secret project A', user: 'tenx' }),
      status: 400,
    },
    {
      label: 'admin moves A’s project to the disabled tenant',
      role: 'admin',
      method: 'PUT',
      url: '/project/pa',
      body: () => projectBody(app, { grant: small(), name: 'Secret project A', user: 'tend' }),
      status: 409,
    },
  ];

  it.each(BASE.map((c) => [`${c.label} → ${c.status}`, c] as const))('%s', async (_label, c) => {
    const { role, method, url, body, status } = c;
    const before = await readWorld(app);
    const response = await send(role, method, url, body());
    expect(response.statusCode, response.body).toBe(status);
    expect(await readWorld(app)).toEqual(before);
  });

  it('strips what a tenant body may not set when the administrator creates one', async () => {
    const response = await send('admin', 'POST', '/user', {
      id: 'tmass',
      name: 'Mass',
      type: 0,
      industry: 'coal',
      grant: small(),
      password: wire(TENANT_PASSWORD),
      password1: wire(TENANT_PASSWORD),
      isAdmin: true,
      status: false,
      passwordHash: 'plain',
      protectUrl: '/app/x',
      createTime: '2000-01-01T00:00:00Z',
      tableSettings: { t: tableSetting },
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = (await readWorld(app)).users.find((u) => u.id === 'tmass');
    expect(row).toMatchObject({ is_admin: false, status: true, protect_url: null, table_settings: {} });
    expect(String(row?.password_hash)).toMatch(/^\$argon2id\$/);
    const token = await app.login('tmass', TENANT_PASSWORD);
    expect((await app.call('GET', `${SPM_URL}/audit`, token)).statusCode).toBe(403);
    expect((await app.call('DELETE', `${SPM_URL}/user/tmass`, tokens.admin)).statusCode).toBe(200);
  });
});

describe('runtime keys report for their own project only', () => {
  const KEYS = ['A', 'B', 'platform', 'garbage', 'none'] as const;
  const TARGETS = ['A', 'B', 'platform', 'none'] as const;
  const cases = KEYS.flatMap((key) =>
    TARGETS.map((target) => ({
      key,
      target,
      status: key === target && target !== 'none' ? 204 : 401,
    })),
  );
  it.each(cases.map((c) => [`key of ${c.key} on project ${c.target} → ${c.status}`, c] as const))(
    '%s',
    async (_label, { key, target, status }) => {
      const id = IDS.project[target];
      const before = await readWorld(app);
      const header: Record<string, string> =
        key === 'none'
          ? {}
          : { 'x-project-key': key === 'garbage' ? 'x'.repeat(43) : (runtimeKeys[key as Owner] ?? '') };
      const response = await send('anonymous', 'PUT', `/project/${id}/usage`, { usage: { userCount: 1 } }, header);
      expect(response.statusCode, response.body).toBe(status);
      const after = await readWorld(app);
      if (status === 204) expect(worldBesides(after, { target: id })).toEqual(worldBesides(before, { target: id }));
      else expect(after).toEqual(before);
    },
  );
});

describe('guessed ids reach nothing of another tenant', () => {
  const GUESSES: Array<[string, number]> = [
    ['PB', 404],
    ['pb%20', 404],
    ['%20pb', 404],
    ["pb'%20or%20'1'%3D'1", 404],
    ['..%2Fpb', 404],
    ['p%62', 404],
    ['pb%00', 400],
    ['pb%2A', 404],
    ['pp', 404],
    ['pd', 404],
  ];
  it.each(GUESSES)('tenant A GET project/%s → %i', async (guess, status) => {
    for (const url of [
      `/project/${guess}`,
      `/project/${guess}/cert`,
      `/project/_collectionNames?projectId=${guess}`,
      `/project/${guess}/data-stats`,
    ]) {
      const response = await send('tenantA', 'GET', url);
      expect(response.statusCode, `${url} ${response.body}`).toBe(status);
      assertNoForeignSecrets('A', response.body);
    }
  });
  it.each(['TENB', 'tenb%20', 'admin', 'tend', 'ten%62', 'tenb%2F..%2Ftena'])(
    'tenant A GET user/%s → 404',
    async (guess) => {
      const response = await send('tenantA', 'GET', `/user/${guess}`);
      expect(response.statusCode, response.body).toBe(404);
      assertNoForeignSecrets('A', response.body);
    },
  );
});

/**
 * The decisions services ask the policy for, each against every kind of caller. The matrix above
 * shows them through the API; this pins the rule itself, so a service cannot drift from it.
 */
describe('policy decisions', () => {
  const user = (id: string, isAdmin: boolean, status = true): UserRow => ({
    id,
    name: id,
    isAdmin,
    status,
    passwordHash: null,
    protectUrl: null,
    tableSettings: {},
    type: 0,
    industry: null,
    grant: null,
    permissions: { blankProjects: true, marketTemplates: true, ownTemplates: true },
    remarks: null,
    logo: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  });
  const admin = user('admin', true);
  const tenantA = user('tena', false);
  const disabledA = user('tena', false, false);

  it('one owner rule: the administrator any owner (the platform by default), a tenant only itself', () => {
    expect(projectOwnerFor(admin, undefined)).toBe('admin');
    expect(projectOwnerFor(admin, '')).toBe('admin');
    expect(projectOwnerFor(admin, 'tenb')).toBe('tenb');
    expect(projectOwnerFor(tenantA, undefined)).toBe('tena');
    expect(projectOwnerFor(tenantA, '')).toBe('tena');
    expect(projectOwnerFor(tenantA, 'tena')).toBe('tena');
    expect(projectOwnerFor(tenantA, 'tenb')).toBeUndefined();
    expect(projectOwnerFor(tenantA, 'admin')).toBeUndefined();
  });

  it('project types follow a tenant’s permissions; the administrator creates any', () => {
    const none = { blankProjects: false, marketTemplates: false, ownTemplates: false };
    expect(mayCreateProjectType(admin, undefined, 'blank')).toBe(true);
    expect(mayCreateProjectType(admin, none, 'template')).toBe(true);
    expect(mayCreateProjectType(tenantA, undefined, 'blank')).toBe(false);
    expect(mayCreateProjectType(tenantA, none, 'blank')).toBe(false);
    expect(mayCreateProjectType(tenantA, { ...none, blankProjects: true }, 'blank')).toBe(true);
    expect(mayCreateProjectType(tenantA, { ...none, blankProjects: true }, 'template')).toBe(false);
    expect(mayCreateProjectType(tenantA, { ...none, ownTemplates: true }, 'template')).toBe(true);
    expect(mayCreateProjectType(tenantA, { ...none, marketTemplates: true }, 'template')).toBe(true);
  });

  it('user records: tenant fields are the administrator’s; preferences anyone’s own', () => {
    expect(mayUpdateUser(admin, 'tenb', true)).toBe(true);
    expect(mayUpdateUser(admin, 'tenb', false)).toBe(true);
    expect(mayUpdateUser(tenantA, 'tena', false)).toBe(true);
    expect(mayUpdateUser(tenantA, 'tena', true)).toBe(false);
    expect(mayUpdateUser(tenantA, 'tenb', false)).toBe(false);
  });

  it('machine codes, key-less usage reports and tenant oversight are the (active) administrator’s', () => {
    expect(maySeeMachineCodes(admin)).toBe(true);
    expect(maySeeMachineCodes(tenantA)).toBe(false);
    expect(maySeeMachineCodes(undefined)).toBe(false);
    expect(mayReportUsageWithoutKey(admin)).toBe(true);
    expect(mayReportUsageWithoutKey(user('admin', true, false))).toBe(false);
    expect(mayReportUsageWithoutKey(tenantA)).toBe(false);
    expect(mayReportUsageWithoutKey(undefined)).toBe(false);
    expect(overseesTenants(admin)).toBe(true);
    expect(overseesTenants(tenantA)).toBe(false);
  });

  it('a tenant’s own actions show in its audit entries; the administrator’s in nobody’s', () => {
    expect(auditTenantOf(tenantA)).toBe('tena');
    expect(auditTenantOf(admin)).toBeNull();
  });

  it('a disabled account may do nothing that needs a session', () => {
    expect(can(disabledA, 'session')).toBe(false);
    expect(can(disabledA, 'project.read')).toBe(false);
    expect(can(disabledA, 'public')).toBe(true);
  });
});

/**
 * The project gate matrix, generated from the gate's route table (every route declaring
 * `config.project`, `plugins/project-gate.ts`): each × anonymous, the other tenant, the owner, the
 * administrator, the owner on a disabled project, and no project named. Whether the gate let a
 * request through (and with which project) is watched on the gate itself, so a route cannot pass
 * these cells by answering the same codes on its own.
 */
describe('project gate matrix', () => {
  type GateRole = 'anonymous' | 'otherTenant' | 'owner' | 'admin' | 'disabledProject' | 'noProject';
  const GATE_ROLES: GateRole[] = ['anonymous', 'otherTenant', 'owner', 'admin', 'disabledProject', 'noProject'];
  /** Tenant A's project, disabled (made in beforeAll below). */
  const DISABLED = 'pad';
  const caller: Record<GateRole, Role> = {
    anonymous: 'anonymous',
    otherTenant: 'tenantB',
    owner: 'tenantA',
    admin: 'admin',
    disabledProject: 'tenantA',
    noProject: 'tenantA',
  };
  /** What each cell must see: through the gate (with the project), or refused with this status and code. */
  interface Expected {
    /** The project the gate lets the request through with; undefined: it does not pass the gate. */
    through: string | undefined;
    status?: number;
    code?: string;
    /** Refused (4xx) before the gate, by the route's own validation or by routing. */
    refused?: boolean;
  }
  function expected(route: GatedRoute, role: GateRole): Expected {
    if (role === 'anonymous') return { through: undefined, status: 401, code: 'unauthorized' };
    if (role === 'otherTenant') return { through: undefined, status: 404, code: 'notFound' };
    if (role === 'disabledProject') {
      return route.need === 'write'
        ? { through: undefined, status: 409, code: 'projectReadOnly' }
        : { through: DISABLED };
    }
    if (role === 'noProject') {
      if (route.need === 'maybe') return { through: undefined };
      // A route naming its project in its path or a required query field: its validation (or routing) answers.
      return route.from
        ? { through: undefined, refused: true }
        : { through: undefined, status: 400, code: 'projectHeaderMissing' };
    }
    return { through: 'pa' };
  }
  const routes = app.projectGate.routes;
  const cells = routes.flatMap((route) =>
    GATE_ROLES.map((role) => {
      const e = expected(route, role);
      const outcome = e.status
        ? `${e.status}${e.code ? ` ${e.code}` : ''}`
        : e.refused
          ? 'refused'
          : `through with ${e.through ?? 'no project'}`;
      return { route, role, e, label: `${route.method} ${route.url} (${route.need}) · ${role} → ${outcome}` };
    }),
  );

  beforeAll(async () => {
    await ok(
      send('tenantA', 'POST', '/project', projectBody(app, { id: DISABLED, name: 'Disabled A', grant: small() })),
    );
    await ok(send('admin', 'PATCH', `/project/${DISABLED}/status`, { status: false }));
  });

  it('covers every project-scoped module', () => {
    const urls = routes.map((route) => route.url);
    for (const prefix of [
      '/portal/rest/core/',
      '/portal/rest/spm/tables',
      '/portal/rest/spm/proxy/core/mediaLibrary',
      '/portal/rest/spm/proxy/core/backup',
      '/portal/rest/spm/proxy/core/taskmanager',
      '/portal/rest/db-backup/cycles',
      '/portal/rest/db-backup/restore',
      '/portal/rest/spm/project/',
    ]) {
      expect(
        urls.some((url) => url.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
    expect(routes.length).toBeGreaterThan(50);
  });

  it.each(cells.map((cell) => [cell.label, cell] as const))('%s', async (_label, { route, role, e }) => {
    const projectId = role === 'disabledProject' ? DISABLED : role === 'noProject' ? undefined : 'pa';
    const url = route.url.replace(/:(\w+)/g, (_whole, name: string) => {
      if (name === 'id' && route.from === 'params.id') return projectId ?? '';
      if (name === 'collection') return COLLECTIONS[0] ?? 'dashboard';
      return 'nosuch';
    });
    const query = route.from === 'query.projectId' && projectId ? `?projectId=${projectId}` : '';
    const headers: Record<string, string> = route.from || !projectId ? {} : { 'x-request-project': projectId };
    const seen: GatedProject[] = [];
    const unwatch = app.projectGate.watch((request, project) => {
      if (request.routeOptions.url === route.url && request.method === route.method) seen.push(project);
    });
    try {
      const response = await send(
        caller[role],
        route.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        `${url}${query}`,
        route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        headers,
      );
      // Never an internal error (a 503 naming what is missing, as FTP storage not configured, is an answer).
      expect(response.statusCode, response.body).not.toBe(500);
      expect(seen.map((project) => project.id)).toEqual(e.through ? [e.through] : []);
      if (e.status) {
        expect(response.statusCode, response.body).toBe(e.status);
        if (e.code) expect(response.json<{ code: string }>().code).toBe(e.code);
      } else if (e.refused) {
        expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      } else {
        expect([401, 403], response.body).not.toContain(response.statusCode);
      }
      assertNoForeignSecrets(WHO[caller[role]], response.body);
    } finally {
      unwatch();
    }
  });
});
