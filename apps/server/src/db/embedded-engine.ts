import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forkHost, takePreforkedHost } from './engine-prefork.js';
import { type HostMessage, type HostOptions, type ServerMessage, WATCHDOG_MARKER } from './pglite-host-contract.js';

export type EngineState = 'starting' | 'ready' | 'restarting' | 'down' | 'stopped';

/** Why the host last stopped on its own: a statement over its limit, or a crash. */
export interface HostStop {
  at: number;
  reason: 'statement-limit' | 'crashed';
  limitMs?: number;
}

/** Crashes this close together (ms) count as a loop; after MAX_QUICK_RESTARTS the engine is down. */
const QUICK_RESTART_WINDOW_MS = 60_000;
const MAX_QUICK_RESTARTS = 5;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * The embedded database as a child process (`pglite-host.ts`), kept running: started once, and
 * restarted from its files when it stops on its own (the watchdog stopped a runaway statement, or
 * it crashed). The server connects to `socketDir` with node-postgres.
 */
export class EmbeddedEngine {
  readonly socketDir: string;
  state: EngineState = 'starting';
  private stopped: HostStop | undefined;
  private child: ChildProcess | undefined;
  private readonly restarts: number[] = [];
  private readonly onLog: (message: string) => void;
  private readonly stopListeners = new Set<(stop: HostStop) => void>();

  constructor(
    private readonly options: Omit<HostOptions, 'socketDir'>,
    onLog: (message: string) => void = (message) => console.warn(message),
  ) {
    this.onLog = onLog;
    this.creates = !existsSync(path.join(options.dataDir, 'PG_VERSION'));
    // A private folder: whoever can reach the socket can read the whole database.
    this.socketDir = mkdtempSync(path.join(tmpdir(), 'gantry-db-'));
  }

  /**
   * Why the engine last stopped on its own. The watchdog's marker is read directly as well: the
   * callers' connections break before the process's exit is handled here.
   */
  get lastStop(): HostStop | undefined {
    const marker = this.state === 'ready' ? readMarker(path.join(this.socketDir, WATCHDOG_MARKER)) : undefined;
    if (marker) return { at: Date.now(), reason: 'statement-limit', limitMs: marker.limitMs };
    return this.stopped;
  }

  /** Calls `listener` each time the engine stopped on its own (and is restarted): metrics. */
  onStop(listener: (stop: HostStop) => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  /** The engine process's id (for drills and diagnostics). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Whether the first start creates the database (initdb): its memory peak stays with the process. */
  readonly creates: boolean;

  async start(): Promise<void> {
    this.child = await this.spawn();
    this.state = 'ready';
  }

  /**
   * A fresh process on the same files. After creating the database PGlite's WebAssembly memory stays
   * at its peak (it never shrinks); a new process starts from what an existing directory needs.
   */
  async recycle(): Promise<void> {
    const child = this.child;
    this.state = 'restarting';
    this.child = undefined;
    if (child) await this.stopChild(child);
    this.child = await this.spawn();
    this.state = 'ready';
  }

  /** Answers within `timeoutMs` when the host is idle enough to read a message: 'busy' otherwise. */
  ping(timeoutMs: number): Promise<'ready' | 'busy' | EngineState> {
    const child = this.child;
    if (this.state !== 'ready') return Promise.resolve(this.state);
    // Gone, and its exit not yet handled: it is about to be restarted.
    if (!child?.connected) return Promise.resolve('restarting');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        resolve('busy');
      }, timeoutMs);
      const onMessage = (message: HostMessage) => {
        if (message.type !== 'pong') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve('ready');
      };
      child.on('message', onMessage);
      child.send({ type: 'ping' } satisfies ServerMessage, (error) => {
        if (!error) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve('restarting');
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.state = 'stopped';
    this.child = undefined;
    if (child) await this.stopChild(child);
    rmSync(this.socketDir, { recursive: true, force: true });
  }

  /** Asks the process to close its files and leave; kills it if it does not in time. */
  private async stopChild(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.send({ type: 'stop' } satisfies ServerMessage, () => undefined);
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private spawn(): Promise<ChildProcess> {
    const options: HostOptions = { ...this.options, socketDir: this.socketDir };
    rmSync(path.join(this.socketDir, WATCHDOG_MARKER), { force: true });
    const child = takePreforkedHost() ?? forkHost();
    child.send({ type: 'start', options } satisfies ServerMessage, () => undefined);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the embedded database did not start in time'));
      }, START_TIMEOUT_MS);
      // Sending to a process that is dying fails with EPIPE: its exit is what counts.
      child.on('error', () => undefined);
      let failure = '';
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`the embedded database could not start: ${failure || `exit code ${code}`}`));
      };
      child.once('exit', onExit);
      child.on('message', (message: HostMessage) => {
        if (message.type === 'failed') failure = message.message;
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        child.off('exit', onExit);
        child.once('exit', (exitCode, signal) => this.onUnexpectedExit(child, exitCode, signal));
        resolve(child);
      });
    });
  }

  private onUnexpectedExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child || this.state === 'stopped') return;
    this.child = undefined;
    const marker = readMarker(path.join(this.socketDir, WATCHDOG_MARKER));
    this.stopped = marker
      ? { at: Date.now(), reason: 'statement-limit', limitMs: marker.limitMs }
      : { at: Date.now(), reason: 'crashed' };
    for (const listener of this.stopListeners) listener(this.stopped);
    this.onLog(
      marker
        ? `embedded database: a statement ran ${marker.ranMs} ms (limit ${marker.limitMs} ms); restarting it`
        : `embedded database stopped (code ${code}, signal ${signal}); restarting it`,
    );
    const now = Date.now();
    this.restarts.push(now);
    while (this.restarts.length > 0 && now - (this.restarts[0] ?? now) > QUICK_RESTART_WINDOW_MS) this.restarts.shift();
    if (this.restarts.length > MAX_QUICK_RESTARTS) {
      this.state = 'down';
      this.onLog('embedded database: too many restarts in a minute; giving up until the server restarts');
      return;
    }
    this.state = 'restarting';
    this.spawn().then(
      (next) => {
        if (this.state === 'stopped') {
          next.send({ type: 'stop' } satisfies ServerMessage, () => undefined);
          return;
        }
        this.child = next;
        this.state = 'ready';
        this.onLog('embedded database: restarted');
      },
      (error: unknown) => {
        this.state = 'down';
        this.onLog(`embedded database: restart failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }
}

function readMarker(file: string): { limitMs: number; ranMs: number } | undefined {
  try {
    const marker: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof marker === 'object' &&
      marker !== null &&
      'limitMs' in marker &&
      typeof marker.limitMs === 'number' &&
      'ranMs' in marker &&
      typeof marker.ranMs === 'number'
      ? { limitMs: marker.limitMs, ranMs: marker.ranMs }
      : undefined;
  } catch {
    return undefined;
  }
}
