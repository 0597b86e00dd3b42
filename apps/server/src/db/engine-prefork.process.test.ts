import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from './database.js';
import { preforkHost } from './engine-prefork.js';

const PREFORK = fileURLToPath(new URL('./engine-prefork.ts', import.meta.url));

/** The engine processes (pglite-host) this process has as children. */
function hostChildren(): number[] {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
    .split(' ')
    .filter(Boolean)
    .map(Number);
  return children.filter(
    (pid) => existsSync(`/proc/${pid}`) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pglite-host'),
  );
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

describe('the engine process forked before the server has loaded (dist/main.js)', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('waits for its options, and the database opened next runs in it rather than in a second process', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gantry-prefork-'));
    dirs.push(dir);
    const dataDir = path.join(dir, 'pglite');
    // Created first: a new directory is created in one process and opened again in a fresh one.
    await (await openDatabase({ dataDir })).close();
    const before = hostChildren();
    preforkHost();
    const early = hostChildren().filter((pid) => !before.includes(pid));
    expect(early).toHaveLength(1);
    const handle = await openDatabase({ dataDir });
    try {
      const rows = await queryRows<{ n: number }>(handle.db, sql`select ${41}::int + 1 as n`);
      expect(rows).toEqual([{ n: 42 }]);
      expect(hostChildren().filter((pid) => !before.includes(pid))).toEqual(early);
    } finally {
      await handle.close();
    }
    expect(await until(() => hostChildren().every((pid) => !early.includes(pid)), 10_000)).toBe(true);
  });

  it('leaves when its server does without having sent them (a wrong config, a failed start)', async () => {
    // A server that forks the engine early, then exits: the engine process must not stay behind.
    const script = [
      `import { preforkHost } from ${JSON.stringify(PREFORK)};`,
      'preforkHost();',
      "const children = '/proc/' + process.pid + '/task/' + process.pid + '/children';",
      "const pid = (await import('node:fs')).readFileSync(children, 'utf8').trim();",
      'console.log(pid);',
      'process.exit(1);',
    ].join('\n');
    const env = { ...process.env, DATABASE_URL: '' };
    const { stdout } = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.dirname(PREFORK),
      env,
      encoding: 'utf8',
    });
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(await until(() => !existsSync(`/proc/${pid}`), 10_000)).toBe(true);
  });
});
