/**
 * Concurrent changes of a tenant and its projects. On PGlite transactions run one at a time; on
 * PostgreSQL (GANTRY_TEST_DATABASE_URL) they overlap, which is what these tests are for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminWithLicence, createProject, createTenant, grant, projectBody, SPM_URL } from '../../test/fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let app: TestApp;
let admin: string;
beforeEach(async () => {
  app = await createTestApp();
  admin = await adminWithLicence(app);
  await createTenant(app, admin, 'acme');
});
afterEach(() => app.close());

const small = () => grant(app, { userCount: 1, flow: { tableCount: 1 }, dataGathering: { point: 1 }, features: [] });
const statuses = (answers: Array<{ statusCode: number; body: string }>) =>
  answers.map((a) => `${a.statusCode}${a.statusCode >= 500 ? ` ${a.body}` : ''}`);

describe('tenant and project races', () => {
  it('disables and enables a tenant while its projects are being edited, without a deadlock', async () => {
    const ids = ['race1', 'race2', 'race3', 'race4'];
    for (const id of ids) await createProject(app, admin, { id, user: 'acme', grant: small() });
    for (let round = 0; round < 6; round++) {
      const disabling = round % 2 === 0;
      const answers = await Promise.all([
        ...ids.map((id) =>
          app.call('PUT', `${SPM_URL}/project/${id}`, admin, projectBody(app, { grant: small(), name: `r${round}` })),
        ),
        disabling
          ? app.call('PATCH', `${SPM_URL}/user/acme/disable`, admin)
          : app.call('PATCH', `${SPM_URL}/user/acme/enable`, admin, ids),
      ]);
      expect(statuses(answers)).toEqual(answers.map(() => '200'));
      const listed = await app.call('GET', `${SPM_URL}/project?query=${encodeURIComponent('{"limit":0}')}`, admin);
      expect(listed.json().map((p: { status: boolean }) => p.status)).toEqual(ids.map(() => !disabling));
    }
  });

  it('gives one of several concurrent claims of an id, port or domain, and 409 to the others', async () => {
    const claim = (overrides: Record<string, unknown>) =>
      Promise.all(
        Array.from({ length: 5 }, () =>
          app.call('POST', `${SPM_URL}/project`, admin, projectBody(app, { grant: small(), ...overrides })),
        ),
      );
    for (const [overrides, code] of [
      [{ id: 'same' }, 'projectIdTaken'],
      [{ port: 6001 }, 'portTaken'],
      [{ domain: 'plant.example.com' }, 'domainTaken'],
    ] as const) {
      const answers = await claim(overrides);
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.statusCode !== 200).map((a) => `${a.statusCode} ${a.json().code}`)).toEqual(
        Array.from({ length: 4 }, () => `409 ${code}`),
      );
    }
  });

  it('never leaves a project behind a tenant deleted while it was being created', async () => {
    for (let round = 0; round < 4; round++) {
      const id = `gone${round}`;
      await createTenant(app, admin, id);
      const answers = await Promise.all([
        app.call('POST', `${SPM_URL}/project`, admin, projectBody(app, { grant: small(), user: id })),
        app.call('DELETE', `${SPM_URL}/user/${id}`, admin),
        app.call('POST', `${SPM_URL}/project`, admin, projectBody(app, { grant: small(), user: id })),
      ]);
      expect(answers.every((a) => a.statusCode < 500)).toBe(true);
      const deleted = answers[1]?.statusCode === 200;
      const created = [answers[0], answers[2]].filter((a) => a?.statusCode === 200).length;
      // Either the tenant went first (no project) or a project went first (the tenant stays, 409).
      expect(deleted ? created === 0 : created > 0 && answers[1]?.statusCode === 409).toBe(true);
      const count = await app.call(
        'GET',
        `${SPM_URL}/project/count?query=${encodeURIComponent(`{"user":"${id}"}`)}`,
        admin,
      );
      expect(count.json()).toEqual({ count: created });
    }
  });
});
