import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TemplateView } from '@gantry/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects, templates, users as usersTable } from '../../db/schema.js';
import { ArchiveReader } from '../../lib/archive/archive-reader.js';
import { ZipFileWriter } from '../../lib/archive/zip-file-writer.js';
import { LocalInvalidationBus } from '../../lib/invalidation-bus.js';
import { appWithTenants, projectBody, SPM_URL, signedInTenant } from '../../test/fixtures.js';
import { multipartFile, type TestApp, TINY_PNG } from '../../test/test-app.js';
import { TemplateRepository } from './template.repository.js';

const TEMPLATES = `${SPM_URL}/templates`;
const CORE = '/portal/rest/core';

// One app for the file: the built-in packages are written once (each test names its own projects).
let app: TestApp;
let admin: string;
let acme: string;
let marketOnly: string;
let blankOnly: string;

beforeAll(async () => {
  [app, admin, acme] = await appWithTenants(['acme']);
  marketOnly = await signedInTenant(app, admin, 'market', {
    permissions: { ownTemplates: false, marketTemplates: true, blankProjects: false },
  });
  blankOnly = await signedInTenant(app, admin, 'blank', {
    permissions: { ownTemplates: true, marketTemplates: false, blankProjects: true },
  });
  await app.app.ready();
});
afterAll(() => app?.close());

function get(url: string, token?: string, language = 'en') {
  return app.app.inject({
    method: 'GET',
    url,
    headers: { 'accept-language': language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

async function finished(taskId: string, token: string) {
  let task = { status: 'ongoing', message: null as string | null, progress: 0 };
  await expect
    .poll(
      async () => {
        task = (await app.call('GET', `${SPM_URL}/proxy/core/taskmanager/${taskId}`, token)).json();
        return task.status;
      },
      { timeout: 30_000, interval: 100 },
    )
    .not.toBe('ongoing');
  return task;
}

function install(token: string, body: Record<string, unknown>) {
  return app.app.inject({
    method: 'POST',
    url: `${SPM_URL}/project/_template`,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    payload: { ...projectBody(app, { projectType: 'template' }), ...body },
  });
}

async function documents(token: string, projectId: string, collection: string) {
  const response = await app.app.inject({
    method: 'GET',
    url: `${CORE}/${collection}?query=${encodeURIComponent(JSON.stringify({ limit: 2000 }))}`,
    headers: { authorization: `Bearer ${token}`, 'x-request-project': projectId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Array<Record<string, unknown>>>();
}

describe('gallery and preview', () => {
  it('lists the built-in templates without a token, searched by name (either language) and industry', async () => {
    const all = await get(TEMPLATES);
    expect(all.statusCode, all.body).toBe(200);
    const items = all.json<TemplateView[]>();
    expect(items.map((t) => t.id).sort()).toEqual(['heating-station', 'oilfield-wells', 'street-lighting']);
    expect(all.headers.count).toBe('3');
    const paged = await get(`${TEMPLATES}?limit=1&skip=1`);
    expect(paged.json<TemplateView[]>()).toHaveLength(1);
    expect(paged.headers.count).toBe('3');
    const past = await get(`${TEMPLATES}?skip=10`);
    expect(past.json()).toEqual([]);
    expect(past.headers.count).toBe('3');
    for (const item of items) {
      expect(item.type).toBe('project template');
      expect(item.schemaId).toBe(item.id);
      expect(item.app_info.views).toBeGreaterThan(0);
      expect(item.app_info.models).toBeGreaterThan(0);
      expect(item.app_info.reports).toBe(1);
      // Public: no package, no use without a session.
      expect(item.download_url).toBeNull();
      expect(item.usable).toBe(false);
    }
    const heating = await get(`${TEMPLATES}?name_contains=${encodeURIComponent('heating STATION')}`);
    expect(heating.json<TemplateView[]>().map((t) => t.id)).toEqual(['heating-station']);
    const chinese = await get(`${TEMPLATES}?name_contains=${encodeURIComponent('路灯')}`, undefined, 'zh');
    expect(chinese.json<TemplateView[]>().map((t) => [t.id, t.name])).toEqual([['street-lighting', '智慧路灯']]);
    const oil = await get(`${TEMPLATES}?industry=oilfield`);
    expect(oil.json<TemplateView[]>().map((t) => t.id)).toEqual(['oilfield-wells']);
    const none = await get(`${TEMPLATES}?industry=coal&name_contains=%25`);
    expect(none.json()).toEqual([]);
    expect((await get(`${TEMPLATES}?industry=mining`)).statusCode).toBe(400);
  });

  it('previews one template with the schemepreview fields; its pictures are SVG drawn by code', async () => {
    const response = await get(`${TEMPLATES}/oilfield-wells`);
    expect(response.statusCode).toBe(200);
    const view = response.json<TemplateView>();
    expect(view.name).toBe('Oilfield well monitoring');
    expect(view.template_description).toMatch(/well register/);
    expect(view.contact).toContain('@');
    expect(view.app_info.nodes).toBe(30);
    expect(view.images).toHaveLength(1);
    expect(Date.parse(view.publish_time)).not.toBeNaN();
    const cover = await get(view.card_display.cover);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(cover.body).toContain('Oilfield well monitoring');
    const image = await get(view.images[0] as string);
    expect(image.body).toContain('<polyline');
    expect((await get(`${TEMPLATES}/nope`)).statusCode).toBe(404);
  });

  it('gives the package to its owner only', async () => {
    const asAdmin = (await get(`${TEMPLATES}/heating-station`, admin)).json<TemplateView>();
    expect(asAdmin.download_url).toBeTruthy();
    const asTenant = (await get(`${TEMPLATES}/heating-station`, acme)).json<TemplateView>();
    expect(asTenant.download_url).toBeNull();
    expect(asTenant.usable).toBe(true);
    const url = asAdmin.download_url as string;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, acme)).statusCode).toBe(404);
    const download = await get(url, admin);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
  });
});

describe('installing', () => {
  it('creates the project and installs the template as a task; the project holds its documents and files', async () => {
    const response = await install(acme, { projectId: 'heat1', name: 'Heat 1', type: 'heating-station' });
    expect(response.statusCode, response.body).toBe(200);
    const created = response.json<{ id: string; projectType: string; type: string; task: { id: string } }>();
    expect(created).toMatchObject({ id: 'heat1', projectType: 'template', type: 'heating-station' });
    const task = await finished(created.task.id, acme);
    expect(task.status, task.message ?? '').toBe('success');
    expect(task.progress).toBe(1);
    const records = await documents(acme, 'heat1', 'table_record');
    expect(records).toHaveLength(12 + 12 * 48);
    expect(records.some((r) => r.tableId === 'station_reading' && typeof r.supplyTemp === 'number')).toBe(true);
    expect((await documents(acme, 'heat1', 'dashboard')).map((d) => d.id ?? d._id)).toHaveLength(2);
    expect(await documents(acme, 'heat1', 'rule')).toHaveLength(2);
    expect(await documents(acme, 'heat1', 'report')).toHaveLength(1);
    // The files of the package: the media library's template pictures.
    const media = await readdir(path.join(app.dataDir, 'projects', 'heat1', 'fileServer', 'template'));
    expect(media.sort()).toEqual(['cover.svg', 'overview.svg']);
    const view = (await get(`${TEMPLATES}/heating-station`)).json<TemplateView>();
    expect(view.num_installed).toBe(1);
  });

  it("sends the install's progress on the websocket (historycomputed), running then ended", async () => {
    const open = (token: string) =>
      app.app.injectWS(`${SPM_URL}/proxy/ws/historycomputed?token=${encodeURIComponent(token)}`);
    const socket = await open(marketOnly);
    const other = await open(blankOnly);
    const otherHeard: string[] = [];
    other.on('message', (data: Buffer) => otherHeard.push(data.toString()));
    const seen: Array<{ type: string; status: string; progress: number; id: string }> = [];
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { name: string; data: Record<string, Record<string, never>> };
      expect(message.name).toBe('historycomputed');
      // An install is a platform task (no project): under `default`, by its request id.
      seen.push(...Object.values(message.data.default ?? {}));
    });
    socket.send(JSON.stringify({ name: 'historycomputed' }));
    const response = await install(marketOnly, { projectId: 'wsinstall', type: 'oilfield-wells' });
    expect(response.statusCode, response.body).toBe(200);
    const { task } = response.json<{ task: { id: string; requestId: string } }>();
    await expect
      .poll(() => seen.some((t) => t.id === task.id && t.status === 'success'), { timeout: 15_000 })
      .toBe(true);
    const mine = seen.filter((t) => t.id === task.id);
    expect(mine.every((t) => t.type === 'template.install')).toBe(true);
    // Seen running before it ended, its progress never going back.
    expect(mine.some((t) => t.status === 'ongoing')).toBe(true);
    const progress = mine.map((t) => t.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(mine.at(-1)).toMatchObject({ status: 'success', progress: 1 });
    // Another tenant's socket hears nothing of it.
    expect(otherHeard.filter((text) => text.includes(task.id))).toEqual([]);
    socket.terminate();
    other.terminate();
  });

  it('POST project with a template (the form of the spec) installs it the same way', async () => {
    const response = await app.call(
      'POST',
      `${SPM_URL}/project`,
      acme,
      projectBody(app, { id: 'oilform', projectType: 'template', type: 'oilfield-wells' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: 'oilform', projectType: 'template', type: 'oilfield-wells' });
    await expect
      .poll(async () => (await documents(acme, 'oilform', 'driver_instance')).length, {
        timeout: 30_000,
      })
      .toBe(30);
  });

  it('installs only the chosen parts (and what no part names, like rules)', async () => {
    const response = await install(acme, {
      projectId: 'lights1',
      type: 'street-lighting',
      collections: ['dashboard'],
    });
    expect(response.statusCode, response.body).toBe(200);
    const task = await finished(response.json<{ task: { id: string } }>().task.id, acme);
    expect(task.status, task.message ?? '').toBe('success');
    expect(await documents(acme, 'lights1', 'dashboard')).toHaveLength(1);
    expect(await documents(acme, 'lights1', 'table_record')).toHaveLength(0);
    expect(await documents(acme, 'lights1', 'rule')).toHaveLength(2);
  });

  it('refuses what the form refuses: no template, an unknown one, a blank type body of another shape', async () => {
    const missing = await install(acme, { projectId: 'x1', type: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.type).toBeTruthy();
    const unknown = await install(acme, { projectId: 'x2', type: 'no-such-template' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields.type).toBeTruthy();
    const badPart = await install(acme, { projectId: 'x3', type: 'heating-station', collections: ['everything'] });
    expect(badPart.statusCode).toBe(400);
    const rows = await app.database.db.select({ id: projects.id }).from(projects).where(eq(projects.id, 'x2'));
    expect(rows).toEqual([]);
  });

  it('keeps within the grant: a project over the tenant pool is refused and nothing is made', async () => {
    const response = await install(acme, {
      projectId: 'huge',
      type: 'heating-station',
      grant: { ...projectBody(app).grant, userCount: 100_000 },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    const rows = await app.database.db.select({ id: projects.id }).from(projects).where(eq(projects.id, 'huge'));
    expect(rows).toEqual([]);
  });
});

describe('tenant project permissions', () => {
  it('market only: may install market templates, no blank projects', async () => {
    const view = (await get(`${TEMPLATES}/oilfield-wells`, marketOnly)).json<TemplateView>();
    expect(view.usable).toBe(true);
    const response = await install(marketOnly, { projectId: 'oil1', type: 'oilfield-wells' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await finished(response.json<{ task: { id: string } }>().task.id, marketOnly)).status).toBe('success');
    const blank = await app.call('POST', `${SPM_URL}/project`, marketOnly, projectBody(app, { id: 'blank1' }));
    expect(blank.statusCode).toBe(403);
    expect(blank.json().code).toBe('projectTypeNotAllowed');
  });

  it('without market templates: the market is shown, not usable, and an install is refused', async () => {
    const view = (await get(`${TEMPLATES}/oilfield-wells`, blankOnly)).json<TemplateView>();
    expect(view.usable).toBe(false);
    const response = await install(blankOnly, { projectId: 'oil2', type: 'oilfield-wells' });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('projectTypeNotAllowed');
    const rows = await app.database.db.select({ id: projects.id }).from(projects).where(eq(projects.id, 'oil2'));
    expect(rows).toEqual([]);
  });

  it("a tenant's own template: only it sees and uses it (with 'allow templates I created')", async () => {
    const heating = await app.database.db.select().from(templates).where(eq(templates.id, 'heating-station'));
    const source = heating[0];
    if (!source) throw new Error('no built-in');
    await app.database.db.insert(templates).values({
      ...source,
      id: 'blank-own',
      name: 'Own heating',
      source: 'tenant',
      ownerId: 'blank',
      version: null,
      numInstalled: 0,
    });
    const own = await get(`${TEMPLATES}/blank-own`, blankOnly);
    expect(own.statusCode).toBe(200);
    expect(own.json<TemplateView>()).toMatchObject({ mine: true, usable: true });
    expect((await get(`${TEMPLATES}/blank-own`, acme)).statusCode).toBe(404);
    expect((await get(`${TEMPLATES}/blank-own`)).statusCode).toBe(404);
    expect((await get(TEMPLATES)).json<TemplateView[]>().map((t) => t.id)).not.toContain('blank-own');
    expect((await get(TEMPLATES, blankOnly)).json<TemplateView[]>().map((t) => t.id)).toContain('blank-own');
    // Another tenant cannot install it (not found for it), its owner can.
    expect((await install(acme, { projectId: 'steal', type: 'blank-own' })).statusCode).toBe(400);
    const response = await install(blankOnly, { projectId: 'own1', type: 'blank-own' });
    expect(response.statusCode, response.body).toBe(200);
    expect((await finished(response.json<{ task: { id: string } }>().task.id, blankOnly)).status).toBe('success');
  });
});

describe("a private template's pictures", () => {
  it('follow the template: anyone else is told not found (nothing named), its owner gets them inline and by token', async () => {
    await get(TEMPLATES); // the built-ins are written on first use
    const [source] = await app.database.db.select().from(templates).where(eq(templates.id, 'heating-station'));
    if (!source) throw new Error('no built-in');
    await app.database.db.insert(templates).values({
      ...source,
      id: 'acme-secret',
      name: 'Secret plant',
      source: 'tenant',
      ownerId: 'acme',
      version: null,
      numInstalled: 0,
    });
    for (const token of [undefined, marketOnly, blankOnly]) {
      for (const picture of ['cover.svg', 'images/1.svg']) {
        const refused = await get(`${TEMPLATES}/acme-secret/${picture}`, token);
        expect(refused.statusCode).toBe(404);
        expect(refused.body).not.toContain('Secret plant');
      }
    }
    // Its owner and the administrator, by token (never cached by a shared cache).
    for (const token of [acme, admin]) {
      const cover = await get(`${TEMPLATES}/acme-secret/cover.svg`, token);
      expect(cover.statusCode).toBe(200);
      expect(cover.body).toContain('Secret plant');
      expect(cover.headers['cache-control']).toBe('no-store');
    }
    // The card an <img> shows carries its drawn cover inline: no URL anyone could fetch.
    const view = (await get(`${TEMPLATES}/acme-secret`, acme)).json<TemplateView>();
    expect(view.card_display.cover).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(view.card_display.cover.split(',')[1] ?? '', 'base64').toString()).toContain('Secret plant');
    // A market template's pictures stay public and cacheable.
    const market = (await get(`${TEMPLATES}/heating-station`)).json<TemplateView>();
    const cover = await get(market.card_display.cover);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['cache-control']).toBe('public, max-age=3600');
    expect((await get(market.images[0] as string)).statusCode).toBe(200);
    await app.database.db.delete(templates).where(eq(templates.id, 'acme-secret'));
  });
});

describe('bad packages', () => {
  /** A template row whose package file is `bytes` (copied from the heating template otherwise). */
  async function badTemplate(id: string, bytes: Buffer) {
    const [source] = await app.database.db.select().from(templates).where(eq(templates.id, 'heating-station'));
    if (!source) throw new Error('no built-in');
    const file = `${id}.zip`;
    await writeFile(path.join(app.dataDir, 'templates', file), bytes);
    await app.database.db
      .insert(templates)
      .values({ ...source, id, name: id, source: 'platform', ownerId: 'admin', file, version: null, numInstalled: 0 });
    return source;
  }

  async function zipOf(entries: Array<[string, string]>): Promise<Buffer> {
    const file = path.join(app.dataDir, `zip-${Date.now()}-${Math.random()}.zip`);
    const zip = await ZipFileWriter.create(file);
    for (const [name, text] of entries) {
      await zip.add(
        name,
        (async function* () {
          yield Buffer.from(text);
        })(),
      );
    }
    await zip.finish();
    return readFile(file);
  }

  const manifestFor = (entry: string) =>
    JSON.stringify({
      format: 'gantry-project-backup',
      version: 1,
      project: { id: 'evil', name: 'evil' },
      createTime: new Date().toISOString(),
      appVersion: '0.1.0',
      item: { fileServer: true, html: false, mongodb: false },
      excludedDirs: [],
      modules: {},
      dirs: [],
      entries: [{ path: entry, size: 1, sha256: '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881' }],
    });

  it('refuses each, says why, leaves no project and counts no install', async () => {
    const [heating] = await app.database.db.select().from(templates).where(eq(templates.id, 'heating-station'));
    const good = await readFile(path.join(app.dataDir, 'templates', heating?.file ?? ''));
    // A byte inside the entries changed (their CRC and hash no longer match).
    const tampered = Buffer.from(good);
    tampered[2000] = (tampered[2000] ?? 0) ^ 0xff;
    const corpus: Array<[string, Buffer, RegExp]> = [
      ['notzip', Buffer.from('this is not a zip file at all, just text'), /zip|archive/i],
      ['truncated', good.subarray(0, Math.floor(good.length / 2)), /archive|zip|truncated/i],
      [
        'slip',
        await zipOf([
          ['fileServer/../evil.txt', 'x'],
          ['manifest.json', manifestFor('fileServer/../evil.txt')],
        ]),
        /path/i,
      ],
      ['nomanifest', await zipOf([['mongodb/rule.jsonl', '{}\n']]), /manifest/i],
      ['tampered', tampered, /damaged|truncated|hash|SHA|size|invalid/i],
    ];
    for (const [id, bytes, why] of corpus) {
      await badTemplate(id, bytes);
      const response = await install(admin, { projectId: `bad${id}`, type: id });
      expect(response.statusCode, response.body).toBe(200);
      const task = await finished(response.json<{ task: { id: string } }>().task.id, admin);
      expect(task.status, id).toBe('failed');
      expect(task.message ?? '', id).toMatch(why);
      const rows = await app.database.db
        .select()
        .from(projects)
        .where(eq(projects.id, `bad${id}`));
      expect(rows, id).toEqual([]);
      const [row] = await app.database.db.select().from(templates).where(eq(templates.id, id));
      expect(row?.numInstalled, id).toBe(0);
    }
  });
});

describe('publishing, editing, export and import', () => {
  async function publish(token: string, body: Record<string, unknown>) {
    return app.app.inject({
      method: 'POST',
      url: TEMPLATES,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
      payload: body,
    });
  }

  it('a tenant publishes its project as its own template (a task), edits, unpublishes and deletes it', async () => {
    // A project with content: installed from the heating template, plus a project user (never carried).
    const made = await install(acme, { projectId: 'pubsrc', type: 'heating-station' });
    expect((await finished(made.json<{ task: { id: string } }>().task.id, acme)).status).toBe('success');
    const user = await app.app.inject({
      method: 'POST',
      url: `${CORE}/user`,
      headers: { authorization: `Bearer ${acme}`, 'x-request-project': 'pubsrc' },
      payload: { id: 'op1', username: 'operator1', password: 'secret-hash' },
    });
    expect(user.statusCode, user.body).toBe(200);
    expect(
      (await publish(acme, { projectId: 'rival-none', name: 'X', industry: 'heating', developer: 'Acme' })).statusCode,
    ).toBe(404);
    const cover = await uploadImage(acme, TINY_PNG);
    const picture = await uploadImage(acme, gif(320, 200));
    const started = await publish(acme, {
      projectId: 'pubsrc',
      name: 'Acme heating',
      industry: 'heating',
      developer: 'Acme Ltd',
      contact: 'ops@acme.example',
      intro: 'Our substations',
      cover,
      images: [picture, cover],
      modules: ['dashboard', 'table', 'table_record', 'rule'],
    });
    expect(started.statusCode, started.body).toBe(200);
    const { id: taskId, templateId } = started.json<{ id: string; templateId: string }>();
    const task = await finished(taskId, acme);
    expect(task.status, task.message ?? '').toBe('success');
    const view = (await get(`${TEMPLATES}/${templateId}`, acme)).json<TemplateView>();
    expect(view).toMatchObject({ name: 'Acme heating', source: 'tenant', mine: true, usable: true, published: true });
    // The uploaded cover and description images, in the order given.
    expect(view.card_display.cover).toBe(cover);
    expect(view.images).toEqual([picture, cover]);
    expect((await get(`${TEMPLATES}?name_contains=Acme`, acme)).json<TemplateView[]>()[0]?.card_display.cover).toBe(
      cover,
    );
    expect(view.app_info.views).toBe(2);
    // Not in the market: others do not see it.
    expect((await get(`${TEMPLATES}/${templateId}`)).statusCode).toBe(404);
    expect((await get(`${TEMPLATES}/${templateId}`, marketOnly)).statusCode).toBe(404);
    // The package carries no project accounts.
    const pkg = await get(view.download_url as string, acme);
    expect(pkg.statusCode).toBe(200);
    expect(pkg.rawPayload.includes(Buffer.from('mongodb/user.jsonl'))).toBe(false);
    expect(pkg.rawPayload.includes(Buffer.from('mongodb/dashboard.jsonl'))).toBe(true);

    // Installing it gives its content back.
    const again = await install(acme, { projectId: 'pubcopy', type: templateId });
    expect((await finished(again.json<{ task: { id: string } }>().task.id, acme)).status).toBe('success');
    expect(await documents(acme, 'pubcopy', 'table_record')).toHaveLength(12 + 12 * 48);
    expect(await documents(acme, 'pubcopy', 'user')).toHaveLength(0);

    // Edit, unpublish: only the owner.
    const edit = (token: string, body: object) => app.call('PATCH', `${TEMPLATES}/${templateId}`, token, body);
    expect((await edit(marketOnly, { name: 'Stolen' })).statusCode).toBe(404);
    const edited = await edit(acme, { name: 'Acme heating v2', published: false, cover: '', images: [picture] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<TemplateView>()).toMatchObject({ name: 'Acme heating v2', published: false, images: [picture] });
    // No cover of its own: the one drawn from its name (inline: the template is not in the market).
    const drawn = edited.json<TemplateView>().card_display.cover;
    expect(drawn).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(drawn.split(',')[1] ?? '', 'base64').toString()).toContain('Acme heating v2');
    expect((await edit(acme, { images: ['https://tracker.example/x.png'] })).statusCode).toBe(400);
    // The administrator manages every template, built-ins only (un)published.
    expect((await app.call('PATCH', `${TEMPLATES}/street-lighting`, admin, { name: 'x' })).statusCode).toBe(403);
    const hidden = await app.call('PATCH', `${TEMPLATES}/street-lighting`, admin, { published: false });
    expect(hidden.statusCode).toBe(200);
    expect((await get(TEMPLATES)).json<TemplateView[]>().map((t) => t.id)).not.toContain('street-lighting');
    // Hidden, its pictures are the administrator's only.
    expect((await get(`${TEMPLATES}/street-lighting/images/1.svg`)).statusCode).toBe(404);
    expect((await get(`${TEMPLATES}/street-lighting/images/1.svg`, admin)).statusCode).toBe(200);
    await app.call('PATCH', `${TEMPLATES}/street-lighting`, admin, { published: true });
    expect((await app.call('DELETE', `${TEMPLATES}/street-lighting`, admin)).statusCode).toBe(403);
    expect((await app.call('DELETE', `${TEMPLATES}/heating-station`, acme)).statusCode).toBe(403);

    // Export then import: the same package becomes a new template of the importer.
    const boundary = '----tpl';
    const imported = await app.app.inject({
      method: 'POST',
      url: `${TEMPLATES}/import?name=${encodeURIComponent('Imported heating')}&industry=heating`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="acme_heating.zip"\r\nContent-Type: application/zip\r\n\r\n`,
        ),
        pkg.rawPayload,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json<TemplateView>()).toMatchObject({ name: 'Imported heating', source: 'platform' });
    const notZip = await app.app.inject({
      method: 'POST',
      url: `${TEMPLATES}/import`,
      headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.zip"\r\n\r\n`),
        Buffer.from('PK but not really a zip archive at all'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(notZip.statusCode).toBe(400);

    const removed = await app.call('DELETE', `${TEMPLATES}/${templateId}`, acme);
    expect(removed.statusCode).toBe(200);
    expect((await get(`${TEMPLATES}/${templateId}`, acme)).statusCode).toBe(404);
  });
});

describe('the gallery in memory', () => {
  it('answers as the statement does, and drops its copy when a template changes (here or in another process)', async () => {
    await app.services.templates.ensureBuiltins();
    const users = await app.database.db.select().from(usersTable);
    const bus = new LocalInvalidationBus();
    // Two processes' repositories on one database and bus; a third always asks the database.
    const here = new TemplateRepository(app.database.db, bus);
    const there = new TemplateRepository(app.database.db, bus);
    const statement = new TemplateRepository(app.database.db, undefined, Date.now, 0);
    const cases = [
      [{}, { skip: 0, limit: 200 }],
      [{ nameContains: 'HEAT' }, { skip: 0, limit: 200 }],
      [{ nameContains: '%' }, { skip: 0, limit: 200 }],
      [{ nameContains: '灯' }, { skip: 0, limit: 200 }],
      [{ industry: 'oilfield' as const }, { skip: 0, limit: 200 }],
      [{}, { skip: 1, limit: 2 }],
      [{}, { skip: 50, limit: 2 }],
    ] as const;
    for (const user of [undefined, ...users]) {
      for (const [filter, page] of cases) {
        const expected = await statement.list(user, filter, page);
        expect(await here.list(user, filter, page), JSON.stringify([user?.id, filter, page])).toEqual(expected);
      }
    }
    const first = async (repo: TemplateRepository) =>
      (await repo.list(undefined, {}, { skip: 0, limit: 1 })).rows[0]?.id;
    const leader = await first(there);
    const [last] = (await statement.list(undefined, {}, { skip: 0, limit: 200 })).rows.slice(-1);
    expect(last && last.id !== leader).toBe(true);
    // A change made behind the repositories' backs is not seen until a template change is announced.
    const before = last?.numInstalled ?? 0;
    await app.database.db
      .update(templates)
      .set({ numInstalled: 1_000_000 })
      .where(eq(templates.id, last?.id ?? ''));
    expect(await first(there)).toBe(leader);
    await here.update(last?.id ?? '', { numInstalled: 1_000_001 });
    expect(await first(there)).toBe(last?.id);
    await here.update(last?.id ?? '', { numInstalled: before });
    expect(await first(there)).toBe(leader);
  });
});

/** A GIF header declaring `width` × `height` (the rest of a real GIF is not needed to be judged). */
function gif(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

function postImage(token: string | undefined, content: Uint8Array, name = 'cover.png', type = 'image/png') {
  const { payload, headers } = multipartFile('file', name, content, type);
  return app.app.inject({
    method: 'POST',
    url: `${TEMPLATES}/images`,
    payload,
    headers: { ...headers, 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

async function uploadImage(token: string, content: Uint8Array): Promise<string> {
  const response = await postImage(token, content);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ url: string }>().url;
}

describe('cover and description images', () => {
  it('stores an uploaded image as a file of the data directory and serves it with its type', async () => {
    const url = await uploadImage(blankOnly, TINY_PNG);
    expect(url).toMatch(/^\/portal\/rest\/spm\/templates\/images\/[0-9a-f]{64}\.png$/);
    const name = url.slice(url.lastIndexOf('/') + 1);
    expect((await readFile(path.join(app.dataDir, 'template-images', name))).equals(TINY_PNG)).toBe(true);
    const served = await get(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
    // The same picture twice: one file, one URL.
    expect(await uploadImage(acme, TINY_PNG)).toBe(url);
    const gifUrl = await uploadImage(acme, gif(640, 360));
    expect((await get(gifUrl)).headers['content-type']).toBe('image/gif');
    for (const bad of ['..%2F..%2Fsecret.key', `${'a'.repeat(64)}.png`, `${name.slice(0, 64)}.svg`]) {
      expect([400, 404]).toContain((await get(`${TEMPLATES}/images/${bad}`)).statusCode);
    }
  });

  it('refuses hostile and unfit files with a clear message, and callers without a session', async () => {
    const refused = async (content: Uint8Array, status: number, message: RegExp, name?: string, type?: string) => {
      const response = await postImage(acme, content, name, type);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json<{ message: string }>().message).toMatch(message);
    };
    // Judged by content: HTML named .png, an SVG with a script, a BMP (not a card image type).
    await refused(Buffer.from('<html><script>alert(1)</script></html>'), 415, /PNG, JPEG, GIF or WebP/);
    await refused(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      415,
      /SVG is not accepted/,
      'cover.svg',
      'image/svg+xml',
    );
    await refused(Buffer.concat([Buffer.from('BM'), Buffer.alloc(40)]), 415, /PNG, JPEG, GIF or WebP/);
    // A PNG signature with no header after it; a tiny file declaring a huge picture.
    await refused(TINY_PNG.subarray(0, 12), 415, /size cannot be read or is too large/);
    await refused(gif(20_000, 20_000), 415, /at most 4096 × 4096 pixels/);
    await refused(gif(0, 10), 415, /size cannot be read/);
    // Over the size limit (a real PNG header, then padding).
    await refused(Buffer.concat([TINY_PNG, Buffer.alloc(2 * 1024 * 1024)]), 413, /at most 2 MB/);
    expect((await postImage(undefined, TINY_PNG)).statusCode).toBe(401);
  });

  it('a card names only images uploaded for templates that still exist', async () => {
    const body = { projectId: 'none', name: 'X', industry: 'other', developer: 'X' };
    for (const cover of [
      'javascript:alert(1)',
      'https://tracker.example/a.png',
      '/portal/rest/spm/resource/img/x.png',
    ]) {
      const response = await app.call('POST', TEMPLATES, acme, { ...body, cover });
      expect(response.statusCode, cover).toBe(400);
    }
    const missing = `${TEMPLATES}/images/${'b'.repeat(64)}.png`;
    const response = await app.call('POST', TEMPLATES, acme, { ...body, images: [missing] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', fields: { images: '图片不存在，请重新上传' } });
  });
});

/** JSON with object keys sorted (the database keeps JSONB keys in its own order). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('install, then back up: the template comes back', () => {
  /** Documents (collection/id → doc) and files (kind/path → bytes as hex) of an archive's bytes. */
  async function contentOf(bytes: Buffer): Promise<{ documents: Map<string, string>; files: Map<string, string> }> {
    const file = path.join(app.dataDir, `read-${Date.now()}-${Math.random()}.zip`);
    await writeFile(file, bytes);
    const reader = await ArchiveReader.open(file);
    const documents = new Map<string, string>();
    const files = new Map<string, string>();
    try {
      for (const entry of reader.entries) {
        if (entry.directory || entry.filename === 'manifest.json') continue;
        const parts: Buffer[] = [];
        await reader.read(entry, (chunk) => {
          parts.push(Buffer.from(chunk));
        });
        const text = Buffer.concat(parts);
        if (entry.filename.startsWith('mongodb/')) {
          const collection = entry.filename.slice('mongodb/'.length, -'.jsonl'.length);
          for (const line of text.toString('utf8').split('\n').filter(Boolean)) {
            const { id, doc } = JSON.parse(line) as { id: string; doc: unknown };
            documents.set(`${collection}/${id}`, canonical(doc));
          }
        } else files.set(entry.filename, text.toString('hex'));
      }
    } finally {
      await reader.close();
    }
    return { documents, files };
  }

  it('for every built-in template, the new project backed up holds exactly the package content', async () => {
    for (const id of ['heating-station', 'oilfield-wells', 'street-lighting']) {
      const projectId = `round${id.replace(/[^a-z]/g, '').slice(0, 20)}`;
      const made = await install(admin, { projectId, type: id });
      expect(made.statusCode, made.body).toBe(200);
      expect((await finished(made.json<{ task: { id: string } }>().task.id, admin)).status).toBe('success');
      const view = (await get(`${TEMPLATES}/${id}`, admin)).json<TemplateView>();
      const pkg = await contentOf((await get(view.download_url as string, admin)).rawPayload);
      const [row] = await app.database.db.select().from(templates).where(eq(templates.id, id));
      const modules = Object.keys(row?.modules ?? {});
      const query = encodeURIComponent(
        JSON.stringify({
          name: 'roundtrip',
          item: { fileServer: true, html: true, mongodb: true },
          moduleRules: Object.fromEntries(modules.map((module) => [module, 0])),
          excludedDirs: [],
        }),
      );
      const headers = { authorization: `Bearer ${admin}`, 'x-request-project': projectId };
      const started = await app.app.inject({
        method: 'GET',
        url: `${SPM_URL}/proxy/core/backup/export?projectId=${projectId}&query=${query}`,
        headers,
      });
      expect(started.statusCode, started.body).toBe(200);
      const backupId = started.json<{ id: string }>().id;
      expect((await finished(backupId, admin)).status).toBe('success');
      const download = await app.app.inject({
        method: 'GET',
        url: `${SPM_URL}/proxy/core/backup/download/${backupId}`,
        headers,
      });
      expect(download.statusCode).toBe(200);
      const backup = await contentOf(download.rawPayload);
      expect(backup.documents.size, id).toBe(pkg.documents.size);
      expect(new Map([...backup.documents].sort()), id).toEqual(new Map([...pkg.documents].sort()));
      expect(new Map([...backup.files].sort()), id).toEqual(new Map([...pkg.files].sort()));
    }
  });
});
