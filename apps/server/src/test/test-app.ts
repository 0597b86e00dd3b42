import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sha256Hex } from '@gantry/shared';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { type App, type AppOptions, buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type DatabaseHandle, openDatabase, usePglite } from '../db/database.js';
import { PGLITE_EXTENSIONS } from '../db/pglite-options.js';
import { type MachineIdentity, machineCodeOf } from '../modules/licence/machine-identity.js';
import { PglitePool, PostgresPool } from './database-pool.js';

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

/** SHA-256 of every migration's SQL: the cached test databases are named by it. */
function migrationsKey(): string {
  const folder = fileURLToPath(new URL('../db/migrations/', import.meta.url));
  const sql = readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => readFileSync(path.join(folder, name), 'utf8'));
  return sha256Hex(sql.join('\0'));
}

/**
 * The migrated embedded database every test app starts from, as PGlite's data-directory tarball.
 * Migrating a new PGlite takes seconds, so the tarball is kept on disk between test files and runs,
 * named by the migrations' contents and the PGlite version (a changed migration makes a new one);
 * written under a temporary name and renamed, so parallel workers never read a half-written one.
 */
let templateBlob: Promise<Blob> | undefined;
function migratedPgliteBlob(): Promise<Blob> {
  templateBlob ??= (async () => {
    const key = sha256Hex([pgliteVersion(), Object.keys(PGLITE_EXTENSIONS).join(','), migrationsKey()].join('\0'));
    const cached = path.join(tmpdir(), `gantry-test-pglite-${key.slice(0, 16)}.tar`);
    if (existsSync(cached)) return new Blob([readFileSync(cached)]);
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await usePglite(client);
    const blob = await client.dumpDataDir('none');
    await client.close();
    const partial = `${cached}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    renameSync(partial, cached);
    return blob;
  })();
  return templateBlob;
}

function pgliteVersion(): string {
  // The package exports no package.json: find it from its entry (…/pglite/dist/index.cjs).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = path.join(path.dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * One migrated PostgreSQL database per set of migrations, copied for each test app (a copy costs
 * about a third of running the migrations). Named by the migrations' contents, so a changed migration
 * makes a new template; built under another name and renamed, so a half-built one is never copied;
 * an advisory lock makes parallel workers build it once.
 */
let postgresTemplate: Promise<string> | undefined;
function migratedPostgresTemplate(url: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `gantry_test_template_${migrationsKey().slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_${randomBytes(4).toString('hex')}`;
        await admin.query(`CREATE DATABASE ${building}`);
        const target = new URL(url);
        target.pathname = `/${building}`;
        const handle = await openDatabase({ url: target.toString(), dataDir: '' });
        await handle.close();
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      }
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    } finally {
      await admin.end();
    }
    return name;
  })();
  return postgresTemplate;
}

/**
 * The worker's databases: each starts from the migrated tarball (PGlite) or template (PostgreSQL),
 * and one a finished test app used is emptied back to that state and reused (database-pool.ts).
 * GANTRY_TEST_FRESH_DATABASES=1 makes a new one every time.
 */
export const migratedPglite = async () =>
  new PGlite({ extensions: PGLITE_EXTENSIONS, loadDataDir: await migratedPgliteBlob() });
const FRESH = process.env.GANTRY_TEST_FRESH_DATABASES === '1';
const pglitePool = new PglitePool(migratedPglite, FRESH ? 0 : 2);

/**
 * A fresh database per test app: an in-memory PGlite clone, or a copy of the migrated template on the
 * test PostgreSQL; `embedded`: on the PGlite pass, the embedded engine in its own process in `dataDir`,
 * reached through the pools as the server runs it (created and migrated: seconds).
 */
async function freshDatabase(
  engine: 'pglite' | 'postgres' = ENGINE,
  embedded?: { dataDir: string },
): Promise<{ handle: DatabaseHandle; dispose: () => Promise<void>; url?: string }> {
  if (embedded && (!PG_URL || engine === 'pglite')) {
    const handle = await openDatabase({ dataDir: path.join(embedded.dataDir, 'pglite') });
    return { handle, dispose: () => handle.close() };
  }
  if (!PG_URL || engine === 'pglite') {
    const client = await pglitePool.acquire();
    // Closing the test app hands the instance back, reset, for the worker's next one (a test that
    // closed the database itself has its instance dropped).
    return { handle: await usePglite(client), dispose: () => pglitePool.release(client) };
  }
  const pool = postgresPool(PG_URL);
  const name = await pool.acquire();
  const url = pool.urlOf(name);
  const handle = await openDatabase({ url, dataDir: '' });
  return {
    handle,
    url,
    dispose: async () => {
      await handle.close();
      await pool.release(name);
    },
  };
}

/** A new database copied from the migrated template. */
async function copyOfTemplate(serverUrl: string): Promise<string> {
  const name = `gantry_test_${randomBytes(6).toString('hex')}`;
  const from = await migratedPostgresTemplate(serverUrl);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${from}`);
  } finally {
    await admin.end();
  }
  return name;
}

let pgPool: PostgresPool | undefined;
function postgresPool(serverUrl: string): PostgresPool {
  pgPool ??= new PostgresPool(serverUrl, () => copyOfTemplate(serverUrl), FRESH ? 0 : 2);
  return pgPool;
}

export interface TestApp extends App {
  app: FastifyInstance;
  dataDir: string;
  /** Moves the injected clock forward. */
  advance(ms: number): void;
  /** The injected clock's time (ms since the epoch). */
  now(): number;
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
    /** On the PGlite pass, the embedded engine in its own process (as the server runs it), not an in-process clone. */
    embedded?: boolean;
  } = {},
): Promise<TestApp> {
  const { engine, embedded, ...appOptions } = options;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gantry-test-'));
  const { handle, dispose, url } = await freshDatabase(engine, embedded ? { dataDir } : undefined);
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
    now: () => now,
    close: async () => {
      await app.close();
      await dispose();
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
