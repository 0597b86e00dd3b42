import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_ARCHIVE, COLLECTIONS } from '@gantry/shared';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureZip } from '../../lib/archive/zip-codec.js';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import { projectManifest } from '../../test/hostile-zip.js';
import type { TestApp } from '../../test/test-app.js';

const BACKUP = `${SPM_URL}/proxy/core/backup`;
const CORE = '/portal/rest/core';
const project = 'plant1';
let app: TestApp;
let acme: string;

beforeAll(async () => {
  configureZip();
  // A restore replacing every module of an archive of 3 documents or more goes by partition.
  [app, , acme] = await appWithTenants(['acme'], { GANTRY_OWN_PARTITION_MIN_DOCUMENTS: '3' });
  await createProject(app, acme, { id: project });
  await app.app.ready();
});
afterAll(() => app.close());

interface Entry {
  name: string;
  data?: Uint8Array;
  directory?: boolean;
  unixMode?: number;
}
const text = (value: string) => new TextEncoder().encode(value);
const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const line = (id: string, doc: object) =>
  `${JSON.stringify({ id, createTime: '2026-01-01T00:00:00.000Z', updateTime: '2026-01-01T00:00:00.000Z', doc })}\n`;

/** A manifest that lists `entries` as they are (callers then spoil one thing). */
function manifestFor(entries: Entry[], modules: Record<string, { documents: number }> = {}) {
  return projectManifest(
    entries
      .filter((e) => !e.directory)
      .map((e) => ({ path: e.name, size: e.data?.length ?? 0, sha256: sha(e.data ?? new Uint8Array()) })),
    entries.filter((e) => e.directory).map((e) => e.name.replace(/\/$/, '')),
    modules,
  );
}

async function zip(entries: Entry[], manifest: unknown, options: { level?: number } = {}): Promise<Uint8Array> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), { level: options.level ?? 1 });
  for (const entry of entries) {
    await writer.add(entry.name, entry.directory ? undefined : new Uint8ArrayReader(entry.data ?? new Uint8Array()), {
      ...(entry.directory ? { directory: true } : {}),
      ...(entry.unixMode ? { unixMode: entry.unixMode } : {}),
    });
  }
  if (manifest !== undefined) {
    const body = typeof manifest === 'string' ? manifest : JSON.stringify(manifest);
    await writer.add(BACKUP_ARCHIVE.manifest, new Uint8ArrayReader(text(body)));
  }
  return writer.close();
}

function upload(content: Uint8Array, name = 'archive.zip') {
  const boundary = `----corpus${randomBytes(8).toString('hex')}`;
  return app.app.inject({
    method: 'POST',
    url: `${BACKUP}/upload`,
    headers: {
      authorization: acme,
      'x-request-project': project,
      'accept-language': 'en',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
}

const rule = { name: `${BACKUP_ARCHIVE.modulesDir}/rule.jsonl`, data: text(line('r1', { name: 'a' })) };
const file = { name: 'fileServer/a.txt', data: text('hello') };
const good: Entry[] = [rule, file];

/** Every archive here must be refused, naming its problem, leaving no record and no file. */
const corpus: Array<[string, () => Promise<Uint8Array>, RegExp]> = [
  ['PK then garbage', async () => text('PK\u0003\u0004 and then nothing a zip has'), /not a zip file, or damaged/],
  ['no manifest', () => zip(good, undefined), /manifest\.json is missing/],
  ['a manifest that is not JSON', () => zip(good, '{"format":'), /manifest\.json is not valid \(JSON\)/],
  [
    'an unknown format version',
    () => zip(good, { ...manifestFor(good, { rule: { documents: 1 } }), version: 99 }),
    /version 99/,
  ],
  [
    'a manifest of another shape',
    () => zip(good, { ...manifestFor(good), entries: 'all' }),
    /manifest\.json is not valid/,
  ],
  ...(
    [
      ['a parent segment', 'fileServer/../../etc/evil.txt'],
      ['an absolute path', '/etc/passwd'],
      ['a drive letter', 'fileServer/C:/evil.txt'],
      ['a backslash', 'fileServer/..\\..\\evil.txt'],
      ['a folder of its own', 'secrets/evil.txt'],
      ['a control character', 'fileServer/a\u0007.txt'],
    ] as const
  ).map(([what, name]): [string, () => Promise<Uint8Array>, RegExp] => {
    const entries = [...good, { name, data: text('evil') }];
    return [`an entry with ${what}`, () => zip(entries, manifestFor(entries, { rule: { documents: 1 } })), /not safe/];
  }),
  [
    'a symbolic link',
    () => {
      const entries = [...good, { name: 'fileServer/link', data: text('/etc/passwd'), unixMode: 0o120777 }];
      return zip(entries, manifestFor(entries, { rule: { documents: 1 } }));
    },
    /symbolic link: fileServer\/link/,
  ],
  [
    'an entry the manifest does not list',
    () =>
      zip([...good, { name: 'fileServer/extra.txt', data: text('x') }], manifestFor(good, { rule: { documents: 1 } })),
    /not in the manifest: fileServer\/extra\.txt/,
  ],
  [
    'an entry of the manifest missing',
    () => zip([rule], manifestFor(good, { rule: { documents: 1 } })),
    /entry of the manifest is missing: fileServer\/a\.txt/,
  ],
  [
    'changed bytes',
    () => zip([rule, { name: file.name, data: text('hellO') }], manifestFor(good, { rule: { documents: 1 } })),
    /SHA-256 check: fileServer\/a\.txt/,
  ],
  [
    'a wrong size',
    () => {
      const manifest = manifestFor(good, { rule: { documents: 1 } });
      manifest.entries[1] = { ...(manifest.entries[1] as (typeof manifest.entries)[number]), size: 4 };
      return zip(good, manifest);
    },
    /wrong size: fileServer\/a\.txt/,
  ],
  [
    'a zip bomb',
    () => {
      const entries = [{ name: 'fileServer/zeros.bin', data: new Uint8Array(64 * 1024 * 1024) }];
      return zip(entries, manifestFor(entries), { level: 9 });
    },
    /expands suspiciously far/,
  ],
  [
    'an unknown data module',
    () => {
      const entries = [{ name: 'mongodb/passwords.jsonl', data: text(line('x', {})) }];
      return zip(entries, manifestFor(entries, { passwords: { documents: 1 } }));
    },
    /unknown data module: passwords/,
  ],
  [
    'a line that is not a document',
    () => {
      const entries = [{ name: rule.name, data: text(`${line('r1', {})}{"id":"r2","doc":"not an object"}\n`) }];
      return zip(entries, manifestFor(entries, { rule: { documents: 2 } }));
    },
    /line 2 of data module rule is not a valid document/,
  ],
  [
    'a document count the manifest does not match',
    () => {
      const entries = [{ name: rule.name, data: text(line('r1', {})) }];
      return zip(entries, manifestFor(entries, { rule: { documents: 5 } }));
    },
    /data module rule is not a valid document/,
  ],
  [
    'a cut archive',
    async () => {
      const whole = await zip(good, manifestFor(good, { rule: { documents: 1 } }));
      return whole.subarray(0, whole.length - 40);
    },
    /not a zip file, or damaged/,
  ],
  [
    'a damaged compressed entry',
    async () => {
      const big = { name: 'fileServer/big.txt', data: text('gantry '.repeat(50_000)) };
      const whole = await zip([big], manifestFor([big]));
      const spoiled = new Uint8Array(whole);
      for (let i = 200; i < 260; i++) spoiled[i] = (spoiled[i] ?? 0) ^ 0xff;
      return spoiled;
    },
    /truncated or damaged|SHA-256|wrong size/,
  ],
];

describe('archives that must be refused', () => {
  it.each(corpus)('refuses %s, and keeps nothing of it', async (_what, make, message) => {
    const before = await readdir(path.join(app.dataDir, 'backups', project)).catch(() => [] as string[]);
    const response = await upload(await make());
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toMatch(message);
    expect(await readdir(path.join(app.dataDir, 'backups', project)).catch(() => [] as string[])).toEqual(before);
    const list = await app.app.inject({
      method: 'GET',
      url: `${BACKUP}?query=${encodeURIComponent(JSON.stringify({ withCount: true }))}`,
      headers: { authorization: acme, 'x-request-project': project },
    });
    expect(list.headers.count).toBe('0');
  });

  it('accepts the good archive the corpus spoils (so each refusal is for its one fault)', async () => {
    const response = await upload(await zip(good, manifestFor(good, { rule: { documents: 1 } })), 'good.zip');
    expect(response.statusCode, response.body).toBe(200);
    const id = response.json<{ id: string }>().id;
    await app.app.inject({
      method: 'DELETE',
      url: `${BACKUP}/${id}`,
      headers: { authorization: acme, 'x-request-project': project },
    });
  });
});

/** What the three rules do, as a model: 0 overwrite and add, 1 add and keep, 2 clear then add. */
function model(current: Map<string, number>, incoming: Map<string, number>, ruleNumber: 0 | 1 | 2) {
  if (ruleNumber === 2) return new Map(incoming);
  const result = new Map(current);
  for (const [id, value] of incoming) if (ruleNumber === 0 || !result.has(id)) result.set(id, value);
  return result;
}

async function waitTask(id: string) {
  let status = 'ongoing';
  let message = '';
  await expect
    .poll(
      async () => {
        const task = (
          await app.app.inject({
            method: 'GET',
            url: `${SPM_URL}/proxy/core/taskmanager/${id}`,
            headers: { authorization: acme },
          })
        ).json<{ status: string; message: string }>();
        status = task.status;
        message = task.message;
        return status;
      },
      { timeout: 60_000, interval: 50 },
    )
    .not.toBe('ongoing');
  return { status, message };
}

describe('restore rules', () => {
  it('restores each rule as the model says, and the dry run says it first', async () => {
    const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const docs = fc.uniqueArray(fc.tuple(ids, fc.integer({ min: 0, max: 99 })), {
      selector: ([id]) => id,
      maxLength: 5,
    });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        docs,
        docs,
        fc.constantFrom<0 | 1 | 2>(0, 1, 2),
        async (incomingDocs, currentDocs, ruleNumber) => {
          round++;
          const headers = { authorization: acme, 'x-request-project': project, 'accept-language': 'en' };
          const setAll = async (pairs: Array<[string, number]>) => {
            const existing = (
              await app.app.inject({
                method: 'GET',
                url: `${CORE}/cron?query=${encodeURIComponent('{"limit":100}')}`,
                headers,
              })
            ).json<Array<{ id: string }>>();
            for (const doc of existing)
              await app.app.inject({ method: 'DELETE', url: `${CORE}/cron/${doc.id}`, headers });
            for (const [id, value] of pairs) {
              await app.app.inject({ method: 'POST', url: `${CORE}/cron`, headers, payload: { id, value } });
            }
          };
          await setAll(incomingDocs);
          const query = encodeURIComponent(
            JSON.stringify({ name: `r${round}`, item: ['mongodb'], moduleRules: { cron: 0 } }),
          );
          const started = await app.app.inject({ method: 'GET', url: `${BACKUP}/export?query=${query}`, headers });
          expect((await waitTask(started.json<{ id: string }>().id)).status).toBe('success');
          const backupId = started.json<{ id: string }>().id;
          await setAll(currentDocs);

          const restoreQuery = encodeURIComponent(
            JSON.stringify({ id: backupId, item: ['mongodb'], moduleRules: { cron: ruleNumber } }),
          );
          const plan = (
            await app.app.inject({ method: 'GET', url: `${BACKUP}/import/plan?query=${restoreQuery}`, headers })
          ).json<{ modules: Array<{ added: number; overwritten: number; kept: number; deleted: number }> }>();
          const current = new Map(currentDocs);
          const incoming = new Map(incomingDocs);
          const duplicates = [...incoming.keys()].filter((id) => current.has(id)).length;
          expect(plan.modules[0]).toEqual({
            module: 'cron',
            rule: ruleNumber,
            added: ruleNumber === 2 ? incoming.size : incoming.size - duplicates,
            overwritten: ruleNumber === 0 ? duplicates : 0,
            kept: ruleNumber === 2 ? 0 : ruleNumber === 0 ? current.size - duplicates : current.size,
            deleted: ruleNumber === 2 ? current.size : 0,
          });

          const restoring = await app.app.inject({
            method: 'GET',
            url: `${BACKUP}/import?query=${restoreQuery}`,
            headers,
          });
          const outcome = await waitTask(restoring.json<{ id: string }>().id);
          expect(outcome.status, outcome.message).toBe('success');
          const after = (
            await app.app.inject({
              method: 'GET',
              url: `${CORE}/cron?query=${encodeURIComponent('{"limit":100}')}`,
              headers,
            })
          ).json<Array<{ id: string; value: number }>>();
          const expected = model(current, incoming, ruleNumber);
          expect(new Map(after.map((doc) => [doc.id, doc.value]))).toEqual(expected);
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);

  it('a restore whose archive was changed on disk fails naming the entry, and the project is as before', async () => {
    const headers = { authorization: acme, 'x-request-project': project, 'accept-language': 'en' };
    await app.app.inject({ method: 'POST', url: `${CORE}/theme`, headers, payload: { id: 'blue', colour: '#00f' } });
    const query = encodeURIComponent(JSON.stringify({ name: 'theme', item: ['mongodb'], moduleRules: { theme: 0 } }));
    const started = await app.app.inject({ method: 'GET', url: `${BACKUP}/export?query=${query}`, headers });
    const id = started.json<{ id: string }>().id;
    expect((await waitTask(id)).status).toBe('success');
    // Rewrite the archive with one document changed and the manifest left as it was.
    const archive = path.join(app.dataDir, 'backups', project, `${id}.zip`);
    const original = await readFile(archive);
    const { ArchiveReader } = await import('../../lib/archive/archive-reader.js');
    const reader = await ArchiveReader.open(archive);
    const entries: Entry[] = [];
    let manifest = '';
    for (const entry of reader.entries) {
      if (entry.directory) continue;
      const parts: Uint8Array[] = [];
      await reader.read(entry, (chunk) => {
        parts.push(new Uint8Array(chunk));
      });
      const data = Buffer.concat(parts);
      if (entry.filename === BACKUP_ARCHIVE.manifest) manifest = data.toString('utf8');
      else entries.push({ name: entry.filename, data: text(data.toString('utf8').replace('#00f', '#f00')) });
    }
    await reader.close();
    await writeFile(archive, await zip(entries, manifest));
    expect(Buffer.compare(original, await readFile(archive))).not.toBe(0);

    await app.app.inject({ method: 'PATCH', url: `${CORE}/theme/blue`, headers, payload: { colour: '#0f0' } });
    const restoreQuery = encodeURIComponent(JSON.stringify({ id, item: ['mongodb'], moduleRules: { theme: 2 } }));
    const restoring = await app.app.inject({ method: 'GET', url: `${BACKUP}/import?query=${restoreQuery}`, headers });
    const outcome = await waitTask(restoring.json<{ id: string }>().id);
    expect(outcome).toEqual({
      status: 'failed',
      message: 'The backup file is not valid: an entry fails its SHA-256 check: mongodb/theme.jsonl',
    });
    const theme = await app.app.inject({ method: 'GET', url: `${CORE}/theme/blue`, headers });
    expect(theme.json()).toMatchObject({ colour: '#0f0' });
  }, 60_000);

  it('an archive with a document the database cannot store (a NUL character) is refused at upload, naming the line', async () => {
    const headers = { authorization: acme, 'x-request-project': project, 'accept-language': 'en' };
    await app.app.inject({ method: 'POST', url: `${CORE}/cron`, headers, payload: { id: 'nightly', at: '02:00' } });
    const cron = {
      name: `${BACKUP_ARCHIVE.modulesDir}/cron.jsonl`,
      data: text(`${line('nightly', { at: '03:00' })}${line('poisoned', { at: 'a\u0000b' })}`),
    };
    const uploaded = await upload(await zip([cron], manifestFor([cron], { cron: { documents: 2 } })), 'nul.zip');
    expect(uploaded.statusCode).toBe(400);
    expect(uploaded.json()).toEqual({
      message: 'The backup file is not valid: line 2 of data module cron is not a valid document',
      code: 'backupArchiveInvalid',
    });
    const nightly = await app.app.inject({ method: 'GET', url: `${CORE}/cron/nightly`, headers });
    expect(nightly.json()).toMatchObject({ at: '02:00' });
  }, 60_000);

  it.each([
    ['through the staging table', { cron: 2 }],
    ['by partition (every module replaced)', Object.fromEntries(COLLECTIONS.map((name) => [name, 2]))],
  ])(
    'a restore of an archive holding one id twice fails naming the module, and the project is as before (%s)',
    async (_, moduleRules) => {
      const headers = { authorization: acme, 'x-request-project': project, 'accept-language': 'en' };
      await app.app.inject({ method: 'POST', url: `${CORE}/cron`, headers, payload: { id: 'nightly', at: '02:00' } });
      const cron = {
        name: `${BACKUP_ARCHIVE.modulesDir}/cron.jsonl`,
        data: text(
          `${line('only-in-archive', { at: '01:00' })}${line('nightly', { at: '03:00' })}${line('nightly', { at: '04:00' })}`,
        ),
      };
      // The archive holds every module the restore names (empty but cron).
      const others = Object.keys(moduleRules).filter((name) => name !== 'cron');
      const entries = [
        cron,
        ...others.map((name) => ({ name: `${BACKUP_ARCHIVE.modulesDir}/${name}.jsonl`, data: text('') })),
      ];
      const modules = Object.fromEntries(others.map((name) => [name, { documents: 0 }]));
      const manifest = manifestFor(entries, { ...modules, cron: { documents: 3 } });
      const uploaded = await upload(await zip(entries, manifest), 'twice.zip');
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      const id = uploaded.json<{ id: string }>().id;
      const restoreQuery = encodeURIComponent(JSON.stringify({ id, item: ['mongodb'], moduleRules }));
      const restoring = await app.app.inject({ method: 'GET', url: `${BACKUP}/import?query=${restoreQuery}`, headers });
      expect(restoring.statusCode, restoring.body).toBe(200);
      const outcome = await waitTask(restoring.json<{ id: string }>().id);
      expect(outcome).toEqual({
        status: 'failed',
        message: 'The backup file is not valid: data module cron holds the same document id more than once',
      });
      const nightly = await app.app.inject({ method: 'GET', url: `${CORE}/cron/nightly`, headers });
      expect(nightly.json()).toMatchObject({ at: '02:00' });
      const missing = await app.app.inject({ method: 'GET', url: `${CORE}/cron/only-in-archive`, headers });
      expect(missing.statusCode).toBe(404);
    },
    60_000,
  );
});
