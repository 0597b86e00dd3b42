import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Global setup of the server-process tests: builds the server (apps/server/dist, about half a
 * second) from the sources as they are now, so the processes the tests start run what is tested.
 */
export default function setup(): void {
  const script = fileURLToPath(new URL('../../../../scripts/build-server.mjs', import.meta.url));
  execFileSync(process.execPath, [script], { stdio: 'inherit' });
}
