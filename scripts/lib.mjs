// Helpers shared by start.mjs and test.mjs: run commands, install what is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

export function mustRun(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} exited with ${status}`);
    process.exit(status);
  }
}

/**
 * npm ci when node_modules is missing or older than the lockfile. The build tools are dev dependencies,
 * which npm leaves out under NODE_ENV=production (how `npm start` is often run): included explicitly.
 */
export function ensureDependencies() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('▸ installing npm packages (npm ci)');
  mustRun('npm', ['ci', '--include=dev', '--no-audit', '--no-fund']);
}

function newestMtime(dir) {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds the server (scripts/build-server.mjs) when its bundle is missing or older than its sources,
 * the npm packages it bundles included (npm rewrites node_modules/.package-lock.json at each install).
 */
export async function ensureServerBuilt({ force = false } = {}) {
  const main = path.join(ROOT, 'apps/server/dist/main.js');
  const sources = [
    path.join(ROOT, 'apps/server/src'),
    path.join(ROOT, 'packages/shared/src'),
    path.join(ROOT, 'scripts/build-server.mjs'),
    path.join(ROOT, 'scripts/source-map-trim.mjs'),
    path.join(ROOT, 'node_modules/.package-lock.json'),
  ];
  const stale = !existsSync(main) || sources.some((source) => newestMtime(source) > statSync(main).mtimeMs);
  if (!force && !stale) return;
  console.log('▸ building the server');
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}

/** Builds the console when its output is missing or older than its sources. */
export function ensureConsoleBuilt({ force = false } = {}) {
  const index = path.join(ROOT, 'apps/console/dist/index.html');
  const sources = [path.join(ROOT, 'apps/console/src'), path.join(ROOT, 'packages/shared/src')];
  const stale = !existsSync(index) || sources.some((dir) => newestMtime(dir) > statSync(index).mtimeMs);
  if (!force && !stale) return;
  console.log('▸ building the console');
  // Always a production build: a caller's NODE_ENV (vitest's 'test', when a process test runs `npm
  // start` after a source changed) would otherwise reach Vite and antd, whose test mode gives every
  // select the same element id.
  mustRun('npm', ['run', 'build', '-w', '@gantry/console'], { env: { ...process.env, NODE_ENV: 'production' } });
}

export const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium for the browser tests; installed when missing and we are root. */
export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    console.error(`${CHROMIUM} is missing: apt-get install chromium`);
    process.exit(1);
  }
  console.log('▸ installing Debian chromium');
  mustRun('apt-get', ['update', '-qq']);
  mustRun('apt-get', ['install', '-y', '-qq', 'chromium'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
