import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The README's example configuration (deploy/nginx.conf), run as it is but for its ports. */
const EXAMPLE = fileURLToPath(new URL('../../../../deploy/nginx.conf', import.meta.url));
const NGINX = '/usr/sbin/nginx';

/**
 * Debian's nginx in front of `nodes` (loopback ports), listening on `port`, from `dir` (its logs and
 * temporary files): the example's two upstream servers and its listen port replaced, nothing else.
 */
export async function startNginx(dir: string, port: number, nodes: [number, number]): Promise<ChildProcess> {
  const example = await readFile(EXAMPLE, 'utf8');
  const config = example
    .replace('server 127.0.0.1:3001 ', `server 127.0.0.1:${nodes[0]} `)
    .replace('server 127.0.0.1:3002 ', `server 127.0.0.1:${nodes[1]} `)
    .replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`);
  if (config === example) throw new Error('deploy/nginx.conf no longer has the ports this test replaces');
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  await mkdir(path.join(dir, 'temp'), { recursive: true });
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, config);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (answer?.status === 200) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('nginx did not answer');
}
