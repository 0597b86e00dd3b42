import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The embedded engine's process may be forked before the server has loaded (`dist/main.js` does,
 * `src/launch.ts`): it compiles PGlite and reads its file system image while the server compiles
 * and reads its config, then waits for its options (`EmbeddedEngine.spawn` sends them). Its start is
 * the longest part of a server's, so every millisecond it starts sooner is one off the whole.
 * The launcher and the engine are in different bundles: they meet through Node's symbol registry.
 */
const PREFORKED = Symbol.for('gantry.engineHost');
const holder = globalThis as { [PREFORKED]?: ChildProcess };

/** The host entry beside this module: TypeScript under tsx, JavaScript in the built server. */
function hostEntry(): { file: string; execArgv: string[] } {
  const self = fileURLToPath(import.meta.url);
  const typescript = self.endsWith('.ts');
  const file = path.join(path.dirname(self), typescript ? 'pglite-host.ts' : 'pglite-host.js');
  return { file, execArgv: typescript ? ['--import', 'tsx'] : ['--enable-source-maps'] };
}

/** Forks the engine's process, which waits for its options. */
export function forkHost(): ChildProcess {
  const { file, execArgv } = hostEntry();
  return fork(file, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/**
 * Forks it now unless `DATABASE_URL` names PostgreSQL. Unused (the config is wrong, the server
 * fails before its database opens), it leaves when this process does: it stops at the disconnect.
 */
export function preforkHost(): void {
  if (process.env.DATABASE_URL) return;
  holder[PREFORKED] = forkHost();
}

/** The process forked early, once (a restart forks anew); undefined if there is none or it has gone. */
export function takePreforkedHost(): ChildProcess | undefined {
  const child = holder[PREFORKED];
  holder[PREFORKED] = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null || !child.connected) return undefined;
  return child;
}
