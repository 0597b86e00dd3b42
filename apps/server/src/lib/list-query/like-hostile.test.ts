/**
 * Hostile `like` patterns through the API, at every list that takes a filter (projects as the
 * administrator and as a tenant, tenants, the audit log, the licence history and its export, and
 * their count calls): each answer is a 200 or a 400 `badQuery`, within a time bound, and another
 * tenant's list sent at the same moment is answered within the bound too. Among them the request
 * that froze the server for minutes (issue 9).
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWithLicence, createProject, licenceText, SPM_URL, signedInTenant } from '../../test/fixtures.js';
import { createTestApp, ENGINE, multipartFile, type TestApp } from '../../test/test-app.js';

/** Every answer, hostile or not, within this. */
const BOUND_MS = 2_000;

let app: TestApp;
let admin: string;
let tenantA: string;
let tenantB: string;

beforeAll(async () => {
  app = await createTestApp();
  admin = await adminWithLicence(app);
  const upload = multipartFile('file', 'platform.lic', Buffer.from(licenceText(app)), 'application/octet-stream');
  const uploaded = await app.app.inject({
    method: 'POST',
    url: '/portal/rest/license/upload',
    headers: { ...upload.headers, authorization: `Bearer ${admin}` },
    payload: upload.payload,
  });
  expect(uploaded.statusCode).toBe(200);
  tenantA = await signedInTenant(app, admin, 'tenanta');
  tenantB = await signedInTenant(app, admin, 'tenantb');
  // The name of the frozen request, and names for the patterns to chew on.
  await createProject(app, tenantA, { name: 'aaaaaaaaaaaaaaaaaaaaaaaa!' });
  await createProject(app, tenantA, { name: 'North pump 12 (aaaa) [x]{1,2}' });
  await createProject(app, tenantB, { name: 'B plant' });
  await createProject(app, admin, { name: 'a'.repeat(60) });
});
afterAll(() => app?.close());

/** The list and count calls that filter on text, with the caller and a text field of each. */
const LISTS: Array<{ name: string; path: string; field: string; token: () => string }> = [
  { name: 'projects (tenant)', path: `${SPM_URL}/project`, field: 'name', token: () => tenantA },
  { name: 'projects (admin)', path: `${SPM_URL}/project`, field: 'name', token: () => admin },
  { name: 'tenants', path: `${SPM_URL}/user`, field: 'name', token: () => admin },
  { name: 'audit', path: `${SPM_URL}/audit`, field: 'action', token: () => admin },
  { name: 'licence history', path: '/portal/rest/core/license/machineInfo', field: 'licensee', token: () => admin },
];

function get(path: string, token: string, query: unknown): Promise<LightMyRequestResponse> {
  return app.app.inject({
    method: 'GET',
    url: `${path}?query=${encodeURIComponent(JSON.stringify(query))}`,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
  });
}

async function timed(call: () => Promise<LightMyRequestResponse>) {
  const started = performance.now();
  const response = await call();
  return { response, ms: performance.now() - started };
}

/** A 200, or a 400 badQuery whose reason names the operator and field; never slower than the bound. */
function expectAnswered(outcome: { response: LightMyRequestResponse; ms: number }, field: string, pattern: string) {
  const { response, ms } = outcome;
  const context = `${response.statusCode} ${response.body.slice(0, 300)} for ${JSON.stringify(pattern)}`;
  expect(ms, context).toBeLessThan(BOUND_MS);
  if (response.statusCode === 200) return;
  expect(response.statusCode, context).toBe(400);
  const body = response.json<{ code: string; message: string }>();
  expect(body.code, context).toBe('badQuery');
  expect(body.message, context).toContain(`'like' on field '${field}'`);
}

/** Every list (and count, and the history export) with the pattern, while tenant B lists its projects. */
async function attack(pattern: string): Promise<void> {
  for (const list of LISTS) {
    const filter = { [list.field]: { like: pattern } };
    const calls = [
      timed(() => get(list.path, list.token(), { filter, withCount: true })),
      timed(() => get(`${list.path}/count`, list.token(), filter)),
    ];
    if (list.name === 'licence history') calls.push(timed(() => get(`${list.path}/export`, admin, { filter })));
    const bystander = timed(() => get(`${SPM_URL}/project`, tenantB, { withCount: true }));
    for (const outcome of await Promise.all(calls)) expectAnswered(outcome, list.field, pattern);
    const other = await bystander;
    expect(other.response.statusCode).toBe(200);
    expect(other.response.headers.count).toBe('1');
    expect(other.ms).toBeLessThan(BOUND_MS);
  }
}

const META = ['a', 'b', '!', '(', ')', '{', '}', '1', '5', '0', ',', '*', '+', '?', '|', '[', ']', '^', '$', '.'];
const metaSoup = fc.string({ unit: fc.constantFrom(...META, '\\', '-', ':', 'd', 'w'), maxLength: 80 });

/** Nested groups with counted, starred or plussed repetition: `((a{1,50}){1,50}){1,50}b` and kin. */
const { nested } = fc.letrec<{ nested: string }>((tie) => ({
  nested: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('a', '.', '[ab]', 'a*', 'a|aa'),
    fc
      .tuple(
        tie('nested'),
        fc.constantFrom('*', '+', '?', '{1,50}', '{0,}', '{2}', '{1000}', ''),
        fc.constantFrom('', '|a', '|aa', '|.'),
      )
      .map(([inner, repeat, alternative]) => `(${inner}${alternative})${repeat}`),
  ),
}));

const longAlternation = fc
  .tuple(fc.constantFrom('a', 'a*', 'a?', '.', '.*', '[a-z]+', 'aa', '(a)'), fc.integer({ min: 2, max: 100 }))
  .map(([item, times]) => new Array(times).fill(item).join('|'));

/** Patterns just inside the limits: the most a pattern may do. */
const EDGES = [
  '((a{1,50}){1,50}){1,50}b',
  '(a+)+b',
  '(a|a)*b',
  '(.*a){20}',
  'a{1000}{1000}',
  '((a*)*)*',
  '(\\w+\\s?)*$',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '(a|aa)+$',
  'a(?=a)*',
  '\\1(a)',
  '[[:alpha:]]+',
  `a${'.'.repeat(199)}`,
  `${'.*'.repeat(10)}x`,
  `${'[a-z]?'.repeat(10)}${'[a-z]'.repeat(20)}`,
  `${'.?'.repeat(10)}${'.'.repeat(170)}`,
  '(a.*|b.*)(a.*|b.*)(a.*|b.*)(a.*|b.*)(a.*|b.*)',
  '[\u0080-\u{10ffff}]+a',
  new Array(100).fill('a').join('|'),
  'a'.repeat(201),
];

describe(`hostile like patterns at every list (${ENGINE})`, () => {
  it("refuses the request that froze the server, at once, while another tenant's list is answered", async () => {
    const [frozen, healthy, other] = await Promise.all([
      timed(() => get(`${SPM_URL}/project`, tenantA, { filter: { name: { like: '((a{1,50}){1,50}){1,50}b' } } })),
      timed(() => app.app.inject({ method: 'GET', url: '/healthz' })),
      timed(() => get(`${SPM_URL}/project`, tenantB, {})),
    ]);
    expect(frozen.response.statusCode).toBe(400);
    expect(frozen.response.json()).toMatchObject({ code: 'badQuery' });
    expect(frozen.response.json().message).toContain('nested groups are not allowed');
    expect(frozen.ms).toBeLessThan(BOUND_MS);
    expect(healthy.response.statusCode).toBe(200);
    expect(other.response.statusCode).toBe(200);
    expect(other.response.json()).toHaveLength(1);
  });

  it('answers the edge patterns in time (a 200 or a 400 naming what is not allowed)', async () => {
    for (const pattern of EDGES) await attack(pattern);
  });

  it('answers random hostile patterns in time', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(metaSoup, nested, longAlternation), attack), { numRuns: 60 });
  });
});
