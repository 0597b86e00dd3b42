import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Global setup of the server-process tests: builds the server (apps/server/dist, 1–4 seconds with
 * the npm packages it bundles) from the sources as they are now, so the processes the tests start
 * run what is tested.
 */
export default function setup(): void {
  const script = fileURLToPath(new URL('../../../../scripts/build-server.mjs', import.meta.url));
  execFileSync(process.execPath, [script], { stdio: 'inherit' });
}
