import { setFlagsFromString } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import { saveCodeCache } from './code-cache.js';
import { ConfigError, loadConfig } from './config.js';
import { startConfiguredDatabase } from './open-database.js';

/** A shutdown that takes longer than this (a request or the database that will not finish) is cut short. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * A second signal sooner than this is the same request arriving twice, not an operator insisting: a
 * terminal's Ctrl-C reaches both npm and this process, and npm forwards its copy.
 */
const REPEAT_WINDOW_MS = 1_000;
/**
 * After each full collection the heap may grow by half before the next, where V8 would allow up to
 * four times when the program allocates fast (the backup jobs' large short-lived runs). Set once the
 * server listens: set at launch it slows the start, whose heap grows quickly (docs/DECISIONS.md).
 */
const HEAP_GROWING_PERCENT = 50;

type Log = (message: string, fields: object, level?: 'info' | 'warn' | 'error') => void;

/**
 * Graceful stop on the first SIGINT/SIGTERM: one 'shutting down' line, no new connections, requests in
 * flight finish, the database closes (the app's onClose hook), one 'stopped' line with the time taken,
 * exit 0. A second signal (after REPEAT_WINDOW_MS) or the time limit exits 1 at once. A signal that
 * arrives while the server starts stops it as soon as it is built.
 */
class Shutdown {
  private app: FastifyInstance | undefined;
  private since: number | undefined;

  constructor(private log: Log) {
    const onSignal = (signal: NodeJS.Signals) => this.onSignal(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  get requested(): boolean {
    return this.since !== undefined;
  }

  /** The built server, and from now on its logger; closes it at once if a signal came during the start. */
  attach(app: FastifyInstance): void {
    this.app = app;
    this.log = (message, fields, level = 'info') => app.log[level](fields, message);
    this.close();
  }

  private onSignal(signal: NodeJS.Signals): void {
    if (this.since === undefined) {
      this.since = performance.now();
      this.log('shutting down', { signal });
      setTimeout(() => {
        this.log('shutdown timed out: exiting now', { timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'warn');
        process.exit(1);
      }, SHUTDOWN_TIMEOUT_MS).unref();
      this.close();
    } else if (performance.now() - this.since >= REPEAT_WINDOW_MS) {
      this.log('second signal during shutdown: exiting now', { signal }, 'warn');
      process.exit(1);
    }
  }

  private close(): void {
    const { app, since } = this;
    if (!app || since === undefined) return;
    const took = () => Math.round(performance.now() - since);
    app.close().then(
      () => {
        this.log('stopped', { shutdownMs: took() });
        process.exit(0);
      },
      (error: unknown) => {
        this.log('stopped with an error', { err: error, shutdownMs: took() }, 'error');
        process.exit(1);
      },
    );
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  // Before the server's logger exists, a line in pino's shape.
  const levels = { info: 30, warn: 40, error: 50 };
  const shutdown = new Shutdown((message, fields, level = 'info') =>
    console.log(JSON.stringify({ level: levels[level], ...fields, msg: message })),
  );
  const config = loadConfig();
  // The database (on PGlite, its own process, forked by dist/main.js before this bundle loaded) comes
  // up while the rest of the server loads and is built: the two take most of a start. The bundle
  // runs app.js's modules only now (a dynamic import); building registers routes and runs no
  // statement (the onReady hooks do, at listen).
  let databaseLog = (message: string) => console.warn(message);
  const since = (from: number) => Math.round(performance.now() - from);
  const timings: Record<string, number> = {};
  const opening = startConfiguredDatabase(config, (message) => databaseLog(message));
  opening.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  const { buildApp } = await import('./app.js');
  timings.loadMs = since(started);
  const { handle: database, ready } = await opening;
  const building = performance.now();
  const { app } = await buildApp({ config, database, databaseReady: ready, closeDatabase: true });
  timings.buildMs = since(building);
  databaseLog = (message) => app.log.warn(message);
  await ready;
  timings.databaseMs = since(started);
  shutdown.attach(app);
  if (shutdown.requested) return;
  await app.listen({ port: config.port, host: config.host });
  const startMs = since(started);
  // Before the flag below: V8 accepts a code cache only under the flags it was made with.
  const codeCache = saveCodeCache();
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  app.log.info(
    { engine: config.databaseUrl ? 'postgres' : 'pglite', startMs, ...timings, ...(codeCache ? { codeCache } : {}) },
    `Gantry console on http://${config.host}:${config.port}/portal/`,
  );
  if (config.licenceEvaluation) {
    app.log.warn(
      'evaluation install: no vendor licence key configured (GANTRY_LICENCE_PUBLIC_KEYS), so licences signed ' +
        'with the public development key are accepted; configure the vendor key to turn this off',
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
