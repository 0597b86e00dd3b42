import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sha256Hex } from '@gantry/shared';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { type App, type AppOptions, buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type DatabaseHandle, openDatabase, usePglite } from '../db/database.js';
import { PGLITE_EXTENSIONS } from '../db/pglite-options.js';
import { type MachineIdentity, machineCodeOf } from '../modules/licence/machine-identity.js';

/** Set by the test runner to run the API suite on PostgreSQL instead of PGlite. */
const PG_URL = process.env.GANTRY_TEST_DATABASE_URL;
export const ENGINE = PG_URL ? 'postgres' : 'pglite';

export const ADMIN_PASSWORD = 'Admin12345';

/** The machine the test apps say they run on (the real one is read in machine-identity tests). */
export const TEST_MACHINE: MachineIdentity = {
  platform: 'other',
  cpuId: 'GenuineTest-6-85-7',
  systemUuid: '4c4c4544-0042-3510-8052-b4c04f4e4a32',
  systemSerial: 'TEST-SERIAL-1',
  boardSerial: 'BOARD-0001',
  biosSerial: 'BIOS-0001',
  biosVersion: '2.14.1',
  biosVendor: 'Test BIOS Inc.',
  biosDate: '2025-03-01',
  osUuid: '3d1219c7c4c5404aaa1f6d2a48adf000',
  macs: ['3c:ec:ef:00:00:01'],
};
export const TEST_MACHINE_CODE = machineCodeOf(TEST_MACHINE);
export const wire = (password: string) => sha256Hex(password);

/** One migrated in-memory PGlite per test file; each test app gets a clone of it. */
let template: Promise<PGlite> | undefined;
async function migratedTemplate(): Promise<PGlite> {
  template ??= (async () => {
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await usePglite(client);
    return client;
  })();
  return template;
}

/** A fresh database per test app: an in-memory PGlite clone, or a new database on the test PostgreSQL. */
async function freshDatabase(
  engine: 'pglite' | 'postgres' = ENGINE,
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void>; url?: string }> {
  if (!PG_URL || engine === 'pglite')
    return { handle: await usePglite(await (await migratedTemplate()).clone()), drop: async () => {} };
  const name = `gantry_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), dataDir: '' });
  return {
    handle,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestApp extends App {
  app: FastifyInstance;
  dataDir: string;
  /** Moves the injected clock forward. */
  advance(ms: number): void;
  close(): Promise<void>;
  registerAdmin(password?: string): Promise<void>;
  /** Signs in and returns the token. */
  login(username?: string, password?: string): Promise<string>;
  /** Calls with a bearer token. */
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    token?: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: Pick<AppOptions, 'logStream' | 'ftpStorage'> & {
    /** The embedded engine even in the PostgreSQL pass (tests that move data between the two engines). */
    engine?: 'pglite';
  } = {},
): Promise<TestApp> {
  const { engine, ...appOptions } = options;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gantry-test-'));
  const { handle, drop, url } = await freshDatabase(engine);
  const config = {
    ...loadConfig({ NODE_ENV: 'test', GANTRY_DATA_DIR: dataDir, GANTRY_LOGIN_RATE_PER_MINUTE: '100000', ...env }),
    persistDatabase: false,
    // On PostgreSQL the app listens for other processes' cache invalidations on this database.
    databaseUrl: url,
  };
  let now = Date.now();
  const built = await buildApp({
    config,
    database: handle,
    clock: () => new Date(now),
    logger: options.logStream !== undefined,
    ...appOptions,
    machineIdentity: async () => TEST_MACHINE,
  });
  const { app } = built;

  const call: TestApp['call'] = (method, url, token, payload) =>
    app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  return {
    ...built,
    dataDir,
    advance: (ms) => {
      now += ms;
    },
    close: async () => {
      await app.close();
      await handle.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
    registerAdmin: async (password = ADMIN_PASSWORD) => {
      const response = await call('POST', '/portal/rest/spm/admin/register', undefined, { password: wire(password) });
      if (response.statusCode !== 200) throw new Error(`register failed: ${response.body}`);
    },
    login: async (username = 'admin', password = ADMIN_PASSWORD) => {
      const response = await call('POST', '/portal/rest/spm/login', undefined, { username, password: wire(password) });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
      return response.json<{ token: string }>().token;
    },
    call,
  };
}

/** A multipart/form-data body with one file field. */
export function multipartFile(field: string, filename: string, content: Uint8Array, type: string) {
  const boundary = `----gantry${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.from(content), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The smallest valid PNG: 1×1, one transparent pixel. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2f3b5d30000000049454e44ae426082',
  'hex',
);
