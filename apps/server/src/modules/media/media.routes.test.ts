import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, projectBody, SPM_URL } from '../../test/fixtures.js';
import { type TestApp, TINY_PNG } from '../../test/test-app.js';

const MEDIA = `${SPM_URL}/proxy/core/mediaLibrary`;

let app: TestApp;
let admin: string;
let acme: string;
let other: string;
const project = 'plant1';
const otherProject = 'plant2';

async function world(env: Record<string, string> = {}) {
  [app, admin, acme, other] = await appWithTenants(['acme', 'other'], env);
  await createProject(app, acme, { id: project });
  await createProject(app, other, { id: otherProject });
}
afterEach(() => app.close());

type Method = 'GET' | 'POST' | 'DELETE';
const enc = encodeURIComponent;
const libraryDir = (id = project) => path.join(app.dataDir, 'projects', id, 'fileServer');

function call(method: Method, url: string, token: string, projectId: string | undefined, payload?: unknown) {
  return app.app.inject({
    method,
    url: `${MEDIA}${url}`,
    headers: { authorization: token, ...(projectId ? { 'x-request-project': projectId } : {}) },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** A multipart body with several files (names as given, raw, so hostile names reach the server). */
function form(files: Array<{ name: string; content: Uint8Array }>) {
  const boundary = `----media${randomBytes(8).toString('hex')}`;
  const parts = files.flatMap(({ name, content }, i) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file${i}"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(
  token: string,
  projectId: string | undefined,
  folder: string,
  files: Array<{ name: string; content: Uint8Array }>,
  extra = '',
) {
  const body = form(files);
  return app.app.inject({
    method: 'POST',
    url: `${MEDIA}/upload?path=${enc(folder)}${extra}`,
    headers: { authorization: token, ...(projectId ? { 'x-request-project': projectId } : {}), ...body.headers },
    payload: body.payload,
  });
}

const tree = async (token: string, projectId = project, query = '?files=true') =>
  (await call('GET', `/all/dir${query}`, token, projectId)).json();

/** Every file and folder under a directory, relative, sorted (what is really on disk). */
async function onDisk(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true });
  return entries.map((entry) => entry.split(path.sep).join('/')).sort();
}

describe('media library', () => {
  beforeEach(() => world());

  it('creates folders, uploads, lists, downloads, renames, moves and deletes, on disk', async () => {
    expect(await tree(acme)).toEqual([]);
    const made = await call('POST', '/dir', acme, project, { path: 'images/2024' });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toEqual({ path: 'images/2024', name: '2024', type: 'dir', child: [] });

    const text = Buffer.from('hello, media');
    const uploaded = await upload(acme, project, 'images', [
      { name: 'logo.png', content: TINY_PNG },
      { name: '说明.txt', content: text },
    ]);
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json()).toEqual([
      { path: 'images/logo.png', name: 'logo.png', size: TINY_PNG.length },
      { path: 'images/说明.txt', name: '说明.txt', size: text.length },
    ]);
    expect(await onDisk(libraryDir())).toEqual(['images', 'images/2024', 'images/logo.png', 'images/说明.txt']);
    expect(await readFile(path.join(libraryDir(), 'images/说明.txt'), 'utf8')).toBe('hello, media');

    const folders = await tree(acme, project, '');
    expect(folders).toEqual([
      {
        path: 'images',
        name: 'images',
        type: 'dir',
        child: [{ path: 'images/2024', name: '2024', type: 'dir', child: [] }],
      },
    ]);
    const withFiles = await tree(acme);
    expect(withFiles[0].child.map((node: { path: string }) => node.path)).toEqual([
      'images/2024',
      'images/logo.png',
      'images/说明.txt',
    ]);
    expect(withFiles[0].child[1]).toMatchObject({ type: 'file', size: TINY_PNG.length });
    expect((await call('GET', `/all/dir?path=images/2024`, acme, project)).json()).toEqual([]);

    const download = await call('GET', `/download?path=${enc('images/说明.txt')}`, acme, project);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('hello, media');
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-length']).toBe(String(text.length));
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="__.txt"; filename*=UTF-8''${enc('说明.txt')}`,
    );
    // A browser link: the token and the project in the query; an image previewed inline.
    const link = await app.app.inject({
      method: 'GET',
      url: `${MEDIA}/download?path=images/logo.png&inline=true&token=${acme}&x-request-project=${project}`,
    });
    expect(link.statusCode).toBe(200);
    expect(link.headers['content-type']).toBe('image/png');
    expect(link.rawPayload.equals(TINY_PNG)).toBe(true);
    // Only a GET download takes a token from the query.
    const queryWrite = await app.app.inject({
      method: 'POST',
      url: `${MEDIA}/dir?token=${acme}&x-request-project=${project}`,
      payload: { path: 'sneaky' },
    });
    expect(queryWrite.statusCode).toBe(401);

    const renamed = await call('POST', '/rename', acme, project, { path: 'images/说明.txt', name: 'readme.txt' });
    expect(renamed.json()).toEqual({ path: 'images/readme.txt' });
    const moved = await call('POST', '/move', acme, project, { path: 'images/readme.txt', to: 'images/2024' });
    expect(moved.json()).toEqual({ path: 'images/2024/readme.txt' });
    const toRoot = await call('POST', '/move', acme, project, { path: 'images/2024', to: '' });
    expect(toRoot.json()).toEqual({ path: '2024' });
    expect(await onDisk(libraryDir())).toEqual(['2024', '2024/readme.txt', 'images', 'images/logo.png']);

    const stats = (await app.call('GET', `${SPM_URL}/project/${project}/data-stats`, acme)).json();
    expect(stats.files).toEqual({ fileServer: TINY_PNG.length + text.length, html: 0, truncated: false });

    expect((await call('DELETE', '?path=2024', acme, project)).json()).toEqual({ path: '2024' });
    expect((await call('DELETE', `?path=images`, acme, project)).statusCode).toBe(200);
    expect(await onDisk(libraryDir())).toEqual([]);
    expect((await call('DELETE', `?path=images`, acme, project)).json().code).toBe('mediaNotFound');
  });

  it('refuses to replace or overwrite unasked, and clear mistakes with clear errors', async () => {
    await upload(acme, project, '', [{ name: 'a.txt', content: Buffer.from('one') }]);
    const again = await upload(acme, project, '', [{ name: 'a.txt', content: Buffer.from('two') }]);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'mediaExists', message: '已存在同名文件或文件夹：a.txt' });
    const replaced = await upload(
      acme,
      project,
      '',
      [{ name: 'a.txt', content: Buffer.from('two') }],
      '&overwrite=true',
    );
    expect(replaced.statusCode).toBe(200);
    expect(await readFile(path.join(libraryDir(), 'a.txt'), 'utf8')).toBe('two');

    await call('POST', '/dir', acme, project, { path: 'docs' });
    expect((await call('POST', '/dir', acme, project, { path: 'docs' })).json().code).toBe('mediaExists');
    expect((await call('POST', '/dir', acme, project, { path: 'a.txt/sub' })).json().code).toBe('mediaNotFolder');
    expect((await upload(acme, project, 'missing', [{ name: 'x', content: Buffer.from('x') }])).json().code).toBe(
      'mediaNotFound',
    );
    expect((await upload(acme, project, '', [{ name: 'docs', content: Buffer.from('x') }])).json().code).toBe(
      'mediaExists',
    );
    expect((await call('POST', '/rename', acme, project, { path: 'a.txt', name: 'docs' })).json().code).toBe(
      'mediaExists',
    );
    const intoItself = await call('POST', '/move', acme, project, { path: 'docs', to: 'docs' });
    expect(intoItself.json().code).toBe('mediaMoveIntoItself');
    expect((await call('GET', '/download?path=docs', acme, project)).json().code).toBe('mediaNotFile');
    expect((await call('GET', '/download?path=nothing', acme, project)).statusCode).toBe(404);
    const noFile = await app.app.inject({
      method: 'POST',
      url: `${MEDIA}/upload`,
      headers: { authorization: acme, 'x-request-project': project },
      payload: { path: 'x' },
    });
    expect(noFile.json().code).toBe('noFile');
    const english = await app.app.inject({
      method: 'POST',
      url: `${MEDIA}/dir`,
      headers: { authorization: acme, 'x-request-project': project, 'accept-language': 'en' },
      payload: { path: '../up' },
    });
    expect(english.json().message).toBe('Path not allowed: ../up (a name may not be . or ..)');
    expect(await onDisk(libraryDir())).toEqual(['a.txt', 'docs']);
  });

  it('is the project owner’s and the administrator’s alone: everybody else gets 404 on every call', async () => {
    await upload(acme, project, '', [{ name: 'secret.txt', content: Buffer.from('acme only') }]);
    await call('POST', '/dir', acme, project, { path: 'folder' });
    const attempts = [
      () => call('GET', '/all/dir', other, project),
      () => call('GET', '/download?path=secret.txt', other, project),
      () =>
        app.app.inject({
          method: 'GET',
          url: `${MEDIA}/download?path=secret.txt&token=${other}&x-request-project=${project}`,
        }),
      () => call('POST', '/dir', other, project, { path: 'x' }),
      () => call('POST', '/rename', other, project, { path: 'secret.txt', name: 'y' }),
      () => call('POST', '/move', other, project, { path: 'secret.txt', to: 'folder' }),
      () => call('DELETE', '?path=secret.txt', other, project),
      () => upload(other, project, '', [{ name: 'planted.txt', content: Buffer.from('x') }]),
      () => call('GET', '/all/dir', acme, 'nosuchproject'),
      () => app.call('GET', `${SPM_URL}/project/${project}/data-stats`, other),
    ];
    for (const attempt of attempts) {
      const response = await attempt();
      expect(response.statusCode, response.body).toBe(404);
    }
    expect(await onDisk(libraryDir())).toEqual(['folder', 'secret.txt']);
    expect(await onDisk(libraryDir(otherProject))).toEqual([]);
    expect((await call('GET', '/all/dir', acme, undefined)).json().code).toBe('projectHeaderMissing');
    expect((await call('GET', '/all/dir', 'not-a-token', project)).statusCode).toBe(401);
    // The administrator reaches every project's library.
    expect((await call('GET', '/download?path=secret.txt', admin, project)).body).toBe('acme only');
    expect((await call('GET', '/all/dir', other, otherProject)).json()).toEqual([]);
  });

  it('refuses path traversal, absolute paths, NUL, backslashes and reserved names on every call', async () => {
    await mkdir(libraryDir(), { recursive: true });
    await writeFile(path.join(libraryDir(), 'ok.txt'), 'ok');
    const outside = path.join(app.dataDir, 'projects', project);
    const before = await onDisk(outside);
    const bad = ['../x', '..', 'a/../../x', '../../../etc/passwd', '/etc/passwd', 'a\\..\\b', 'CON', 'nul.txt', 'a//b'];
    const raw = ['%2e%2e', '%2e%2e%2fcert', '..%2F..%2Fetc', '%2Fetc%2Fpasswd', 'a%00b', 'a%5Cb'];
    const check = async (label: string, response: { statusCode: number; body: string }) => {
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
    };
    for (const p of bad) {
      await check(`tree ${p}`, await call('GET', `/all/dir?path=${enc(p)}`, acme, project));
      await check(`download ${p}`, await call('GET', `/download?path=${enc(p)}`, acme, project));
      await check(`mkdir ${p}`, await call('POST', '/dir', acme, project, { path: p }));
      await check(`rename from ${p}`, await call('POST', '/rename', acme, project, { path: p, name: 'y' }));
      await check(`rename to ${p}`, await call('POST', '/rename', acme, project, { path: 'ok.txt', name: p }));
      await check(`move ${p}`, await call('POST', '/move', acme, project, { path: p, to: '' }));
      await check(`move to ${p}`, await call('POST', '/move', acme, project, { path: 'ok.txt', to: p }));
      await check(`delete ${p}`, await call('DELETE', `?path=${enc(p)}`, acme, project));
      await check(`upload into ${p}`, await upload(acme, project, p, [{ name: 'f', content: Buffer.from('x') }]));
    }
    for (const p of raw) {
      await check(`tree ${p}`, await call('GET', `/all/dir?path=${p}`, acme, project));
      await check(`download ${p}`, await call('GET', `/download?path=${p}`, acme, project));
      await check(`delete ${p}`, await call('DELETE', `?path=${p}`, acme, project));
      await check(
        `upload ${p}`,
        await upload(acme, project, '', [{ name: 'f', content: Buffer.from('x') }], `&path=${p}`),
      );
    }
    await check('mkdir NUL', await call('POST', '/dir', acme, project, { path: 'a\u0000b' }));
    await check('mkdir control', await call('POST', '/dir', acme, project, { path: 'a\u0007b' }));
    for (const name of ['../evil.txt', '..\\evil.txt', '/etc/evil', 'CON', '..', 'a\u0001b', `${'x'.repeat(256)}`]) {
      await check(`upload ${name}`, await upload(acme, project, '', [{ name, content: Buffer.from('evil') }]));
    }
    expect(await onDisk(libraryDir())).toEqual(['ok.txt']);
    expect(await onDisk(outside)).toEqual(before);
    expect(existsSync(path.join(app.dataDir, 'projects', 'evil.txt'))).toBe(false);
    expect(existsSync(path.join(app.dataDir, 'evil.txt'))).toBe(false);
  });

  it('never follows a symbolic link planted in the folder', async () => {
    const outside = path.join(app.dataDir, 'outside');
    await mkdir(path.join(outside, 'inner'), { recursive: true });
    await writeFile(path.join(outside, 'secret.txt'), 'outside the project');
    await mkdir(libraryDir(), { recursive: true });
    await symlink(outside, path.join(libraryDir(), 'linkdir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(libraryDir(), 'link.txt'));
    await mkdir(path.join(libraryDir(), 'real'));

    expect((await tree(acme)).map((node: { path: string }) => node.path)).toEqual(['real']);
    const refused = [
      await call('GET', '/all/dir?path=linkdir', acme, project),
      await call('GET', '/download?path=link.txt', acme, project),
      await call('GET', '/download?path=linkdir/secret.txt', acme, project),
      await call('POST', '/dir', acme, project, { path: 'linkdir/new' }),
      await call('POST', '/rename', acme, project, { path: 'linkdir/secret.txt', name: 'x.txt' }),
      await call('POST', '/move', acme, project, { path: 'linkdir/secret.txt', to: 'real' }),
      await call('POST', '/move', acme, project, { path: 'real', to: 'linkdir' }),
      await call('DELETE', '?path=linkdir/inner', acme, project),
      await upload(acme, project, 'linkdir', [{ name: 'planted.txt', content: Buffer.from('x') }]),
      await upload(acme, project, '', [{ name: 'link.txt', content: Buffer.from('x') }], '&overwrite=true'),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe('mediaPathInvalid');
    }
    expect(refused[1]?.json().message).toContain('符号链接');
    expect(await onDisk(outside)).toEqual(['inner', 'secret.txt']);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside the project');
  });

  it('keeps a disabled project read-only', async () => {
    await upload(acme, project, '', [{ name: 'kept.txt', content: Buffer.from('kept') }]);
    expect((await app.call('PATCH', `${SPM_URL}/project/${project}/status`, admin, { status: false })).statusCode).toBe(
      200,
    );
    const writes = [
      await call('POST', '/dir', acme, project, { path: 'x' }),
      await call('POST', '/rename', acme, project, { path: 'kept.txt', name: 'y' }),
      await call('POST', '/move', acme, project, { path: 'kept.txt', to: '' }),
      await call('DELETE', '?path=kept.txt', admin, project),
      await upload(acme, project, '', [{ name: 'new.txt', content: Buffer.from('x') }]),
    ];
    for (const response of writes) expect(response.json().code).toBe('projectReadOnly');
    expect((await call('GET', '/download?path=kept.txt', acme, project)).body).toBe('kept');
    expect(await onDisk(libraryDir())).toEqual(['kept.txt']);
  });

  it('shows the public folder as the settings and the project allow, and enforces its permissions', async () => {
    const names = async (token: string, id = project) =>
      (await tree(token, id, '')).map((node: { path: string }) => node.path);
    // Off in the settings: no public folder, and its name is reserved at the top.
    expect(await names(admin)).toEqual([]);
    expect((await call('POST', '/dir', acme, project, { path: 'public/a' })).json().code).toBe('mediaNotFound');
    const reserved = await call('POST', '/dir', acme, project, { path: 'public' });
    expect(reserved.json().code).toBe('mediaPathInvalid');

    const settings = await app.call('PATCH', `${SPM_URL}/setting`, admin, {
      mediaLibrary: { publicDirEnable: true, publicDirFeature: ['mkDir', 'upload'] },
    });
    expect(settings.statusCode).toBe(200);
    // The administrator keeps the folder: shown in every project, everything allowed.
    expect(await names(admin)).toEqual(['public']);
    expect((await call('POST', '/dir', admin, project, { path: 'public/shared' })).statusCode).toBe(200);
    expect(
      (await upload(admin, project, 'public/shared', [{ name: 'manual.txt', content: Buffer.from('m') }])).statusCode,
    ).toBe(200);
    expect(await onDisk(path.join(app.dataDir, 'public-media'))).toEqual(['shared', 'shared/manual.txt']);
    // A tenant's project that has not turned it on does not see it.
    expect(await names(acme)).toEqual([]);
    expect((await call('GET', '/download?path=public/shared/manual.txt', acme, project)).statusCode).toBe(404);

    const turnedOn = await app.call(
      'PUT',
      `${SPM_URL}/project/${project}`,
      acme,
      projectBody(app, {
        advanced: { mediaLibraryPublicDirEnable: true, mediaLibraryPublicDirFeature: ['mkDir', 'delete'] },
      }),
    );
    expect(turnedOn.statusCode, turnedOn.body).toBe(200);
    expect(await tree(acme, project, '')).toEqual([
      {
        path: 'public',
        name: 'public',
        type: 'dir',
        child: [{ path: 'public/shared', name: 'shared', type: 'dir', child: [] }],
      },
    ]);
    expect((await call('GET', '/download?path=public/shared/manual.txt', acme, project)).body).toBe('m');
    // mkDir: allowed by both; upload: by the settings only; delete: by the project only; modify: by neither.
    expect((await call('POST', '/dir', acme, project, { path: 'public/acme' })).statusCode).toBe(200);
    const denied = [
      await upload(acme, project, 'public/acme', [{ name: 'x.txt', content: Buffer.from('x') }]),
      await call('DELETE', '?path=public/acme', acme, project),
      await call('POST', '/rename', acme, project, { path: 'public/acme', name: 'b' }),
      await call('POST', '/move', acme, project, { path: 'public/acme', to: 'public/shared' }),
    ];
    for (const response of denied) expect(response.json().code, response.body).toBe('mediaPublicDenied');
    expect(denied[0]?.json().message).toBe('公共资源文件夹不允许此操作（upload）');
    // The folder itself is never renamed or removed, and nothing moves between it and the project.
    expect((await call('DELETE', '?path=public', admin, project)).json().code).toBe('mediaPathInvalid');
    await call('POST', '/dir', acme, project, { path: 'mine' });
    expect((await call('POST', '/move', admin, project, { path: 'mine', to: 'public' })).json().code).toBe(
      'mediaCrossArea',
    );
    // The other tenant's project has not turned it on.
    expect(await names(other, otherProject)).toEqual([]);
  });
});

describe('media uploads: size limit and streaming', () => {
  beforeEach(() => world({ GANTRY_MEDIA_FILE_MAX_BYTES: '1000' }));

  it('refuses a file over the limit and leaves no temporary file', async () => {
    await call('POST', '/dir', acme, project, { path: 'in' });
    const exact = await upload(acme, project, 'in', [{ name: 'exact.bin', content: randomBytes(1000) }]);
    expect(exact.statusCode).toBe(200);
    const over = await upload(acme, project, 'in', [{ name: 'over.bin', content: randomBytes(1001) }]);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'mediaFileTooLarge', message: '文件超过上限 1000 字节' });
    const big = await upload(acme, project, 'in', [{ name: 'big.bin', content: randomBytes(200_000) }]);
    expect(big.statusCode).toBe(413);
    expect(await onDisk(libraryDir())).toEqual(['in', 'in/exact.bin']);
    expect((await stat(path.join(libraryDir(), 'in/exact.bin'))).size).toBe(1000);
    // A temporary file left by a stopped server is never shown as a file.
    await writeFile(path.join(libraryDir(), 'in', '.gantry-upload-0000'), 'half');
    expect(
      (await tree(acme)).flatMap((node: { child: Array<{ path: string }> }) => node.child.map((c) => c.path)),
    ).toEqual(['in/exact.bin']);
  });
});

describe('media uploads over a real connection', () => {
  beforeEach(() => world());

  /** Samples the process's resident memory while `work` runs; answers the growth over the start. */
  async function rssGrowth(work: () => Promise<void>): Promise<number> {
    const start = process.memoryUsage.rss();
    let peak = start;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
    return Math.max(peak, process.memoryUsage.rss()) - start;
  }

  it('streams a 160 MiB file to disk and back without holding it in memory', async () => {
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    const block = randomBytes(1024 * 1024);
    // Large enough that the noise of a loaded machine (GC, the in-process database) stays far below half.
    const blocks = 160;
    const size = block.length * blocks;
    const expected = createHash('sha256');
    for (let i = 0; i < blocks; i++) expected.update(block);
    const digest = expected.digest('hex');
    const boundary = '----gantrybig';
    function* body() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      );
      for (let i = 0; i < blocks; i++) yield block;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }

    let answer = '';
    const uploadGrowth = await rssGrowth(
      () =>
        new Promise<void>((resolve, reject) => {
          const request = http.request(
            {
              port,
              host: '127.0.0.1',
              method: 'POST',
              path: `${MEDIA}/upload`,
              headers: {
                authorization: acme,
                'x-request-project': project,
                'content-type': `multipart/form-data; boundary=${boundary}`,
              },
            },
            (response) => {
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => {
                answer += chunk;
              });
              response.on('end', resolve);
            },
          );
          request.on('error', reject);
          Readable.from(body()).pipe(request);
        }),
    );
    expect(JSON.parse(answer)).toEqual([{ path: 'big.bin', name: 'big.bin', size }]);
    expect((await stat(path.join(libraryDir(), 'big.bin'))).size).toBe(size);
    // Held in memory, the file alone would add 160 MiB; streamed, the growth stays far below.
    expect(uploadGrowth).toBeLessThan(size / 2);

    const hash = createHash('sha256');
    let received = 0;
    const downloadGrowth = await rssGrowth(
      () =>
        new Promise<void>((resolve, reject) => {
          http
            .get(
              {
                port,
                host: '127.0.0.1',
                path: `${MEDIA}/download?path=big.bin&token=${acme}&x-request-project=${project}`,
              },
              (response) => {
                expect(response.headers['content-length']).toBe(String(size));
                response.on('data', (chunk: Buffer) => {
                  received += chunk.length;
                  hash.update(chunk);
                });
                response.on('end', resolve);
              },
            )
            .on('error', reject);
        }),
    );
    expect(received).toBe(size);
    expect(hash.digest('hex')).toBe(digest);
    expect(downloadGrowth).toBeLessThan(size / 2);
    console.info(
      `media streaming: ${blocks} MiB upload RSS +${(uploadGrowth / 2 ** 20).toFixed(1)} MiB, download +${(downloadGrowth / 2 ** 20).toFixed(1)} MiB`,
    );
  }, 120_000);

  it('removes the temporary file when the client goes away in the middle of an upload', async () => {
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    const boundary = '----gantrycut';
    const request = http.request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: `${MEDIA}/upload`,
      headers: {
        authorization: acme,
        'x-request-project': project,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(10 * 1024 * 1024),
      },
    });
    request.on('error', () => {});
    request.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    request.write(randomBytes(512 * 1024));
    // The temporary file exists while the upload runs…
    for (let i = 0; i < 200 && (await onDisk(libraryDir())).length === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect((await onDisk(libraryDir()))[0]).toMatch(/^\.gantry-upload-/);
    request.destroy();
    // …and is gone once the connection is.
    for (let i = 0; i < 200 && (await onDisk(libraryDir())).length > 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await onDisk(libraryDir())).toEqual([]);
  });
});
