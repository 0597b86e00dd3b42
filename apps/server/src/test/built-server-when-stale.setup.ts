import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Global setup of the server-postgres tests (two nodes behind nginx run the built server): builds
 * apps/server/dist only when it is missing or older than its sources (scripts/lib.mjs
 * ensureServerBuilt). In `npm test` the process tests built it just before from the same sources, so
 * nothing is rebuilt under the browser tests' server, which runs from it at the same time.
 */
export default function setup(): void {
  const lib = fileURLToPath(new URL('../../../../scripts/lib.mjs', import.meta.url));
  execFileSync(
    process.execPath,
    ['--input-type=module', '-e', 'await (await import(process.argv[1])).ensureServerBuilt()', lib],
    { stdio: 'inherit' },
  );
}
