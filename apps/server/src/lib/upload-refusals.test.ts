import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_MAX_BYTES } from '../plugins/unread-body.js';
import type { UploadRoute } from '../plugins/upload-routes.js';
import { adminWithLicence, createProject, createTenant, SPM_URL, TENANT_PASSWORD } from '../test/fixtures.js';
import { KeepAliveClient, type KeptAnswer } from '../test/keep-alive-client.js';
import { createTestApp, multipartFile, type TestApp } from '../test/test-app.js';
import { formBytesMax, tooLargeError } from './upload-receiver.js';

/**
 * Issue 30 item 7: on every route that takes files (from the app's route table), each early refusal
 * (name, size, type, rights, conflict) of a body of a few hundred KB leaves its keep-alive connection
 * answering the next three requests at once, on the same socket, or closes it cleanly with
 * `Connection: close` (a declared body too large to read and drop), after which a new one answers.
 */

const API = '/portal/rest';
const MEDIA = `${SPM_URL}/proxy/core/mediaLibrary`;
const PAD = 300 * 1024;
/** Small enough that a media file of PAD bytes is refused while it streams. */
const MEDIA_FILE_MAX = 200_000;
const project = 'plant1';

let app: TestApp;
let port: number;
const tokens: Record<'admin' | 'acme' | 'other', string> = { admin: '', acme: '', other: '' };

beforeAll(async () => {
  app = await createTestApp({ GANTRY_MEDIA_FILE_MAX_BYTES: String(MEDIA_FILE_MAX) });
  tokens.admin = await adminWithLicence(app);
  await createTenant(app, tokens.admin, 'acme');
  await createTenant(app, tokens.admin, 'other');
  tokens.acme = await app.login('acme', TENANT_PASSWORD);
  tokens.other = await app.login('other', TENANT_PASSWORD);
  await createProject(app, tokens.acme, { id: project });
  const taken = multipartFile('file', 'taken.bin', randomBytes(16), 'application/octet-stream');
  const stored = await app.app.inject({
    method: 'POST',
    url: `${MEDIA}/upload`,
    headers: { ...taken.headers, authorization: tokens.acme, 'x-request-project': project },
    payload: taken.payload,
  });
  expect(stored.statusCode).toBe(200);
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  // A connection a failed case left hanging must not hold the close up.
  app.app.server.closeAllConnections();
  await app.close();
});

type Caller = keyof typeof tokens | 'nobody';

/** One refused upload: who sends what, and the answer expected. */
interface Refusal {
  what: string;
  caller?: Caller;
  files?: Array<{ name: string; bytes: number }>;
  /** The declared Content-Length, past what is sent when it is past DRAIN_MAX_BYTES. */
  declared?: number;
  contentType?: string;
  status: number;
  code?: string;
}

/** Who may call each route (its own refusals below say otherwise), and the refusals only it has. */
const ROUTES: Record<string, { caller: Caller; refusals: Refusal[] }> = {
  [`POST ${SPM_URL}/resource/img`]: {
    caller: 'admin',
    refusals: [
      { what: 'type', files: [{ name: 'logo.png', bytes: PAD }], status: 415, code: 'notImage' },
      { what: 'permission', caller: 'acme', status: 403, code: 'forbidden' },
    ],
  },
  [`POST ${API}/license/verify`]: {
    caller: 'admin',
    refusals: [{ what: 'permission', caller: 'acme', status: 403, code: 'forbidden' }],
  },
  [`POST ${API}/license/upload`]: {
    caller: 'admin',
    refusals: [{ what: 'permission', caller: 'acme', status: 403, code: 'forbidden' }],
  },
  [`POST ${SPM_URL}/project/cert`]: {
    caller: 'acme',
    refusals: [
      { what: 'name', files: [{ name: 'site.txt', bytes: 60_000 }], status: 400, code: 'certificatesRequired' },
      {
        what: 'too many files',
        files: [1, 2, 3].map((n) => ({ name: `${n}.key`, bytes: 60_000 })),
        status: 400,
        code: 'certificateFiles',
      },
    ],
  },
  [`POST ${MEDIA}/upload`]: {
    caller: 'acme',
    refusals: [
      { what: 'conflict', files: [{ name: 'taken.bin', bytes: PAD }], status: 409, code: 'mediaExists' },
      { what: 'name', files: [{ name: 'a/b.bin', bytes: PAD }], status: 400, code: 'mediaPathInvalid' },
      { what: 'permission', caller: 'other', status: 404, code: 'notFound' },
    ],
  },
  'POST /admin/_p_:id/api/media/upload': { caller: 'nobody', refusals: [] },
  [`POST ${SPM_URL}/proxy/core/backup/upload`]: {
    caller: 'acme',
    refusals: [
      { what: 'name', files: [{ name: '!!! ###.zip', bytes: PAD }], status: 400, code: 'backupUploadName' },
      { what: 'type', files: [{ name: 'notes.txt', bytes: PAD }], status: 400, code: 'backupUploadNotZip' },
      { what: 'content', files: [{ name: 'plain.zip', bytes: PAD }], status: 400, code: 'backupUploadNotZip' },
      { what: 'permission', caller: 'other', status: 404, code: 'notFound' },
    ],
  },
  [`POST ${API}/db-backup/upload`]: {
    caller: 'acme',
    refusals: [
      { what: 'name', files: [{ name: '!!! ###.zip', bytes: PAD }], status: 400, code: 'backupUploadName' },
      { what: 'type', files: [{ name: 'notes.txt', bytes: PAD }], status: 400, code: 'backupUploadNotZip' },
      { what: 'permission', caller: 'other', status: 404, code: 'notFound' },
    ],
  },
  [`POST ${SPM_URL}/templates/images`]: {
    caller: 'acme',
    refusals: [{ what: 'type', files: [{ name: 'cover.png', bytes: PAD }], status: 415, code: 'notImage' }],
  },
  [`POST ${SPM_URL}/templates/import`]: {
    caller: 'acme',
    refusals: [
      { what: 'name', files: [{ name: '!!! ###.zip', bytes: PAD }], status: 400, code: 'backupUploadName' },
      { what: 'type', files: [{ name: 'notes.txt', bytes: PAD }], status: 400, code: 'backupUploadNotZip' },
    ],
  },
  [`POST ${API}/platform-backup/upload`]: {
    caller: 'admin',
    refusals: [
      { what: 'permission', caller: 'acme', status: 403, code: 'forbidden' },
      { what: 'content', files: [{ name: 'platform.zip', bytes: PAD }], status: 400, code: 'backupArchiveInvalid' },
    ],
  },
};

const keyOf = (route: UploadRoute) => `${route.method} ${route.url}`;

/**
 * What every route refuses, from its rule: no session, a body that is no form, sizes past its limits
 * (a file past them refused once read as far, unless the caller is refused first, as `nobody` is).
 */
function commonRefusals(route: UploadRoute, caller: Caller): Refusal[] {
  const refusals: Refusal[] = [
    { what: 'anonymous', caller: 'nobody', status: 401, code: 'unauthorized' },
    { what: 'not a form', contentType: 'application/octet-stream', status: 415 },
  ];
  const max = formBytesMax(route.rule);
  const tooLarge = tooLargeError(route.rule);
  if (max !== undefined) {
    refusals.push({ what: 'declared size', declared: max + 1, status: 413, code: tooLarge.code });
    // The caller's rights first: no limit is told to one without them.
    if (caller !== 'nobody') {
      refusals.push({
        what: 'declared size, anonymous',
        caller: 'nobody',
        declared: max + 1,
        status: 401,
        code: 'unauthorized',
      });
    }
  }
  const fileBytes = route.rule.fileBytes;
  if (fileBytes !== undefined && fileBytes < PAD) {
    refusals.push({
      what: 'size while read',
      files: [{ name: 'big.key', bytes: fileBytes + 1 }],
      ...(caller === 'nobody' ? { status: 401, code: 'unauthorized' } : { status: 413, code: tooLarge.code }),
    });
  }
  return refusals;
}

/** A multipart body with these files (random bytes); the files' own field names. */
function form(files: Array<{ name: string; bytes: number }>) {
  const boundary = `----refusal${randomBytes(8).toString('hex')}`;
  const parts = files.flatMap(({ name, bytes }, i) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file${i}"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    randomBytes(bytes),
    Buffer.from('\r\n'),
  ]);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n${project}\r\n`);
  return {
    body: Buffer.concat([head, ...parts, Buffer.from(`--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Sends the refusal; answers its answer and whether the server had to close (part of a declared body unsent). */
async function send(client: KeepAliveClient, route: UploadRoute, caller: Caller, refusal: Refusal) {
  const { body, type } = refusal.contentType
    ? { body: randomBytes(PAD), type: refusal.contentType }
    : form(refusal.files ?? [{ name: 'file.bin', bytes: PAD }]);
  const headers: Record<string, string> = { 'content-type': type, 'x-request-project': project };
  const who = refusal.caller ?? caller;
  if (who !== 'nobody') headers.authorization = tokens[who];
  let sent = body;
  if (refusal.declared !== undefined) {
    headers['content-length'] = String(refusal.declared);
    // A declared body the server may read and drop is sent whole; a larger one only in part (the
    // client still sending it when the answer comes).
    sent = refusal.declared <= DRAIN_MAX_BYTES ? Buffer.alloc(refusal.declared, body) : body;
  }
  const path = route.url.replace(':id', project);
  const answer = await client.send({ method: route.method, path, headers, body: sent });
  return { answer, closes: sent.length < (refusal.declared ?? sent.length) };
}

async function nextThree(client: KeepAliveClient, refused: KeptAnswer, label: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const next = await client.send({ method: 'GET', path: '/healthz' });
    expect(next.status, `${label}: request ${i + 1} after it`).toBe(200);
    if (refused.headers.connection === 'close') expect(next.socket, label).toBeGreaterThan(refused.socket);
    else expect(next.socket, `${label}: the same connection`).toBe(refused.socket);
  }
}

describe('early upload refusals', () => {
  it('knows every route that takes files, from the route table', () => {
    const table = app.multipartRoutes.map(keyOf).sort();
    expect(table).toEqual(Object.keys(ROUTES).sort());
  });

  it('a media upload refused for its name (409) leaves the connection answering', async () => {
    const client = new KeepAliveClient(port);
    try {
      const route = app.multipartRoutes.find((r) => r.url === `${MEDIA}/upload`);
      if (!route) throw new Error('no media upload route');
      const refusal: Refusal = { what: 'conflict', files: [{ name: 'taken.bin', bytes: PAD }], status: 409 };
      const { answer } = await send(client, route, 'acme', refusal);
      expect(answer.status).toBe(409);
      expect(answer.headers.connection).not.toBe('close');
      await nextThree(client, answer, 'media 409');
    } finally {
      client.close();
    }
  });

  it('every early refusal on every upload route leaves the connection answering, or closes it cleanly', async () => {
    let cases = 0;
    for (const route of app.multipartRoutes) {
      const known = ROUTES[keyOf(route)];
      if (!known) throw new Error(`${keyOf(route)}: a route that takes files with no refusals listed`);
      const client = new KeepAliveClient(port);
      try {
        for (const refusal of [...commonRefusals(route, known.caller), ...known.refusals]) {
          const label = `${keyOf(route)} (${refusal.what})`;
          const { answer, closes } = await send(client, route, known.caller, refusal);
          expect(answer.status, `${label}: ${answer.body}`).toBe(refusal.status);
          if (refusal.code) expect((JSON.parse(answer.body) as { code: string }).code, label).toBe(refusal.code);
          expect(answer.headers.connection === 'close', `${label}: connection closed`).toBe(closes);
          await nextThree(client, answer, label);
          cases++;
        }
      } finally {
        client.close();
      }
    }
    expect(cases).toBeGreaterThan(40);
  }, 120_000);
});
