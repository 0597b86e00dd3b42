import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_ARCHIVE } from '@gantry/shared';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ARCHIVE } from '../../modules/platform-backup/platform-archive.js';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import {
  type CentralPart,
  deflatedRun,
  type LocalPart,
  projectManifest,
  rawZip,
  sha256,
} from '../../test/hostile-zip.js';
import { multipartFile, type TestApp } from '../../test/test-app.js';
import { configureZip } from './zip-codec.js';

/**
 * Issue 30: the hostile archives every upload path must refuse (or whose restore must fail with
 * nothing changed): split zip bombs, overlapping entries, local headers that disagree with the
 * central directory, a manifest of 250 MB, an encrypted bomb, and the zip-slip, link and truncation
 * cases. Each is sent to the four paths that take an archive: project backups, database backups,
 * template packages and platform backups. Nothing may be left in the data directory, and nothing
 * is inflated past the archive's declared bounds.
 */

const project = 'plant1';
let app: TestApp;
let admin: string;
let acme: string;

beforeAll(async () => {
  configureZip();
  [app, admin, acme] = await appWithTenants(['acme']);
  await createProject(app, acme, { id: project });
  // The built-in templates are written on first use: before the data directory is compared.
  expect((await app.call('GET', `${SPM_URL}/templates`, acme)).statusCode).toBe(200);
}, 120_000);
afterAll(() => app.close());

/** Where an archive's files go, and its manifest, for the two archive formats. */
interface Layout {
  file: (name: string) => string;
  manifest: (entries: Array<{ path: string; size: number; sha256: string }>) => object;
}
const projectLayout: Layout = {
  file: (name) => `fileServer/${name}`,
  manifest: (entries) => projectManifest(entries),
};
const platformLayout: Layout = {
  file: (name) => `${PLATFORM_ARCHIVE.filesDir}/media/${name}`,
  manifest: (entries) => ({
    format: PLATFORM_ARCHIVE.format,
    version: PLATFORM_ARCHIVE.version,
    createTime: '2026-01-01T00:00:00.000Z',
    appVersion: 'test',
    engine: 'pglite',
    schema: { migrations: 1 },
    tables: {},
    entries,
  }),
};

interface UploadPath {
  name: string;
  layout: Layout;
  url: string;
  token: () => string;
  project?: string;
  /** Takes a verification code (`?password=`). */
  password?: boolean;
}
const PATHS: UploadPath[] = [
  {
    name: 'project backup upload',
    layout: projectLayout,
    url: `${SPM_URL}/proxy/core/backup/upload`,
    token: () => acme,
    project,
    password: true,
  },
  {
    name: 'database backup upload',
    layout: projectLayout,
    url: '/portal/rest/db-backup/upload',
    token: () => acme,
    project,
    password: true,
  },
  { name: 'template import', layout: projectLayout, url: `${SPM_URL}/templates/import`, token: () => acme },
  { name: 'platform upload', layout: platformLayout, url: '/portal/rest/platform-backup/upload', token: () => admin },
];

function send(to: UploadPath, content: Uint8Array, password?: string) {
  const form = multipartFile('file', 'hostile.zip', content, 'application/zip');
  const query = password ? `?password=${encodeURIComponent(password)}` : '';
  return app.app.inject({
    method: 'POST',
    url: `${to.url}${query}`,
    payload: form.payload,
    headers: {
      ...form.headers,
      authorization: `Bearer ${to.token()}`,
      'accept-language': 'en',
      ...(to.project ? { 'x-request-project': to.project } : {}),
    },
  });
}

const manifestPart = (layout: Layout, entries: Array<{ path: string; size: number; sha256: string }>): LocalPart => ({
  name: BACKUP_ARCHIVE.manifest,
  data: Buffer.from(JSON.stringify(layout.manifest(entries))),
});

const MiB = 1024 * 1024;
const runs = new Map<string, Promise<Awaited<ReturnType<typeof deflatedRun>>>>();
/** A deflated run, made once per test file. */
const run = (size: number, byte = 0, prefix = '') => {
  const key = `${size}/${byte}/${prefix}`;
  if (!runs.has(key)) runs.set(key, deflatedRun(size, byte, Buffer.from(prefix)));
  return runs.get(key) as ReturnType<typeof deflatedRun>;
};

async function encrypted(entries: Array<{ name: string; data: Uint8Array }>, password: string): Promise<Uint8Array> {
  const writer = new ZipWriter(new Uint8ArrayWriter(), { password, encryptionStrength: 3, level: 9 });
  for (const entry of entries) await writer.add(entry.name, new Uint8ArrayReader(entry.data));
  return writer.close();
}

interface HostileCase {
  what: string;
  make: (layout: Layout) => Promise<Uint8Array>;
  message: RegExp;
  password?: string;
}

/** 1,024 entry names sharing one deflated MiB of zeros, and a manifest listing them. */
async function zeroEntries(layout: Layout) {
  const zeros = await run(MiB);
  const names = Array.from({ length: 1024 }, (_, i) => layout.file(`z${i}.bin`));
  const manifest = manifestPart(
    layout,
    names.map((name) => ({ path: name, size: MiB, sha256: zeros.sha256 })),
  );
  return { zeros, names, manifest };
}

const CASES: HostileCase[] = [
  {
    what: 'a split bomb: 1,024 central records sharing one deflated MiB of zeros',
    make: async (layout) => {
      const { zeros, names, manifest } = await zeroEntries(layout);
      const centrals: CentralPart[] = [...names.map((name) => ({ local: 0, name })), { local: 1 }];
      return rawZip([{ name: names[0] as string, deflated: zeros }, manifest], centrals);
    },
    message: /overlap/,
  },
  {
    what: 'a split bomb: 1,024 entries of one deflated MiB of zeros each (1 GiB from about 1 MB)',
    make: async (layout) => {
      const { zeros, names, manifest } = await zeroEntries(layout);
      return rawZip([...names.map((name) => ({ name, deflated: zeros })), manifest]);
    },
    message: /expands suspiciously far/,
  },
  {
    what: 'two entries overlapping by part of their data',
    make: async (layout) => {
      const data = Buffer.from('overlap '.repeat(1000));
      const first = layout.file('a.txt');
      const second = layout.file('b.txt');
      const manifest = manifestPart(layout, [
        { path: first, size: data.length, sha256: sha256(data) },
        { path: second, size: data.length, sha256: sha256(data) },
      ]);
      const zip = rawZip([{ name: first, data, stored: true }, { name: second, data, stored: true }, manifest]);
      // The second central record points into the middle of the first entry's data.
      const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), zip.lastIndexOf(Buffer.from('manifest')));
      const secondCentral = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), central - 1);
      zip.writeUInt32LE(100, secondCentral + 42);
      return zip;
    },
    message: /overlap/,
  },
  {
    what: 'a local header naming another file than its central record',
    make: async (layout) => {
      const data = Buffer.from('the bytes of a.txt');
      const listed = layout.file('b.txt');
      const manifest = manifestPart(layout, [{ path: listed, size: data.length, sha256: sha256(data) }]);
      return rawZip([{ name: layout.file('a.txt'), data }, manifest], [{ local: 0, name: listed }, { local: 1 }]);
    },
    message: /local header disagrees/,
  },
  {
    what: 'a central record declaring fewer bytes than its local header',
    make: async (layout) => {
      const data = Buffer.from('x'.repeat(5000));
      const name = layout.file('a.txt');
      const manifest = manifestPart(layout, [{ path: name, size: 10, sha256: sha256(data.subarray(0, 10)) }]);
      return rawZip([{ name, data }, manifest], [{ local: 0, uncompressedSize: 10 }, { local: 1 }]);
    },
    message: /local header disagrees/,
  },
  {
    what: 'a manifest of 250 MB (whitespace after the JSON) deflated to a few hundred KB',
    make: async (layout) => {
      const head = JSON.stringify(layout.manifest([]));
      const manifest = await run(250 * 1000 * 1000, 0x20, head);
      return rawZip([{ name: BACKUP_ARCHIVE.manifest, deflated: manifest }]);
    },
    // Its ratio alone gives it away, before the manifest's own bound.
    message: /expands suspiciously far/,
  },
  {
    what: 'a manifest of 8 MB stored (no ratio to see), far over what one entry justifies',
    make: async (layout) => {
      const head = JSON.stringify(layout.manifest([]));
      const data = Buffer.concat([Buffer.from(head), Buffer.alloc(8 * MiB - head.length, 0x20)]);
      return rawZip([{ name: BACKUP_ARCHIVE.manifest, data, stored: true }]);
    },
    message: /manifest\.json is not valid \(size\)/,
  },
  {
    what: 'a manifest declaring 2 KB that inflates to 250 MB',
    make: async (layout) => {
      const head = JSON.stringify(layout.manifest([]));
      const manifest = await run(250 * 1000 * 1000, 0x20, head);
      return rawZip([{ name: BACKUP_ARCHIVE.manifest, deflated: manifest }], [{ local: 0, uncompressedSize: 2000 }]);
    },
    message: /local header disagrees/,
  },
  {
    what: 'an encrypted bomb (AES-256, 256 MiB of zeros)',
    password: 'code1234',
    make: async (layout) => {
      const zeros = new Uint8Array(256 * MiB);
      const name = layout.file('zeros.bin');
      const manifest = JSON.stringify(
        layout.manifest([{ path: name, size: zeros.length, sha256: sha256(Buffer.from(zeros)) }]),
      );
      return encrypted(
        [
          { name, data: zeros },
          { name: BACKUP_ARCHIVE.manifest, data: new TextEncoder().encode(manifest) },
        ],
        'code1234',
      );
    },
    message: /expands suspiciously far/,
  },
  {
    what: 'a zip-slip entry (a parent segment)',
    make: async (layout) => {
      const data = Buffer.from('evil');
      const name = layout.file('../../../etc/evil.txt');
      return rawZip([{ name, data }, manifestPart(layout, [{ path: name, size: 4, sha256: sha256(data) }])]);
    },
    message: /not safe/,
  },
  {
    what: 'an absolute path',
    make: async (layout) => {
      const data = Buffer.from('evil');
      return rawZip([
        { name: '/etc/passwd', data },
        manifestPart(layout, [{ path: '/etc/passwd', size: 4, sha256: sha256(data) }]),
      ]);
    },
    message: /not safe/,
  },
  {
    what: 'a cut archive',
    make: async (layout) => {
      const data = Buffer.from('hello');
      const name = layout.file('a.txt');
      const whole = rawZip([{ name, data }, manifestPart(layout, [{ path: name, size: 5, sha256: sha256(data) }])]);
      return whole.subarray(0, whole.length - 40);
    },
    message: /not a zip file, or damaged/,
  },
];

/** Every file under the data directory, with its size. */
async function filesOf(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const files: string[] = [];
  for (const name of names.sort()) {
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info?.isFile()) files.push(`${name} ${info.size}`);
  }
  return files;
}

describe.each(PATHS)('hostile archives on the $name', (to) => {
  it.each(CASES)(
    'refuses $what, keeping nothing of it',
    async (hostile) => {
      const before = await filesOf(app.dataDir);
      const content = await hostile.make(to.layout);
      const response = await send(to, content, to.password ? hostile.password : undefined);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(hostile.message);
      expect(await filesOf(app.dataDir)).toEqual(before);
    },
    120_000,
  );
});

describe('the memory a hostile manifest costs', () => {
  it('ten 250 MB manifests uploaded at once raise the memory by less than 100 MB', async () => {
    const hostile = CASES.find((c) => c.what.startsWith('a manifest of 250 MB')) as HostileCase;
    const content = await hostile.make(projectLayout);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(PATHS[0] as UploadPath, content)));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    for (const answer of answers) expect(answer.statusCode).toBe(400);
    expect((peak - before) / MiB).toBeLessThan(100);
  }, 120_000);
});
