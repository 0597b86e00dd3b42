/**
 * The embedded database's own process (forked by `EmbeddedEngine`, or early by `dist/main.js`; it
 * waits for its options): it owns PGlite and serves it in PostgreSQL's wire protocol on a private
 * Unix socket, so the server reaches both engines through the same driver and its event loop never
 * runs a query.
 *
 * PGlite has one session, so batches from all connections run one at a time; while a connection is
 * inside a transaction only its own batches run. Otherwise the next batch is the oldest of the tenant
 * served longest ago (the request pool tags each statement with its tenant: `tenantTag`), so a
 * tenant's statement never runs after more than one of another tenant's waiting beside it.
 *
 * One statement cannot be interrupted, so a light tenant (its statements typically short) would wait
 * out a heavy one's (typically long) before each of its statements: the rest of its request arrives
 * a moment after the engine has started the heavy one (and the request's first statement, the
 * session's, is not yet its tenant's). So after a light tenant's batch, a heavy tenant's waits while
 * light tenants' batches are there or arrive soon after the last one's end: within a tenth of the
 * heavy one's typical length (at most `lightTenantWaitMs`), and for as long in all as that typical
 * length. Waiting in vain costs the heavy tenant a tenth of a statement at most; and its statement
 * runs after at most one statement's worth of light ones. Untagged batches (connection start-ups and
 * long work) never wait for light ones.
 *
 * A watchdog thread stops the process when one batch runs longer than its connection's limit (PGlite
 * cannot cancel a running statement); the server then restarts it from its files.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import {
  BACKGROUND_APPLICATION,
  type HostMessage,
  type HostOptions,
  LIGHT_TENANT_WAIT_MS,
  type ServerMessage,
  SOCKET_PORT,
  TAG_OPEN,
  taggedTenant,
  WATCHDOG_MARKER,
} from './pglite-host-contract.js';
import { PGLITE_EXTENSIONS } from './pglite-options.js';
import { type Frame, WireFramer } from './wire-framing.js';

/** ReadyForQuery: 'Z', length 5, transaction status. Every answer to Sync or Query ends with it. */
/** A system error's code (this process loads no more than it needs: no shared package). */
const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const READY_FOR_QUERY = 0x5a;
const READY_FOR_QUERY_BYTES = 6;
/** As PostgreSQL's idle_in_transaction_session_timeout, which the server sets on its pools. */
const IDLE_IN_TRANSACTION_MS = 60_000;
const CHECKPOINT_MS = 30_000;
const LOCK_WAIT_MS = 5_000;
/** Tenants whose last turn is remembered; beyond, all are forgotten at once (they count as never served). */
const MAX_TENANTS_KEPT = 10_000;
/** A tenant whose statements typically take this long or less is light: its next may go before a heavy tenant's. */
const LIGHT_MS = 5;
/** A heavy statement waits at most this share of its tenant's typical length for a light one that may come. */
const HOLD_SHARE = 0.1;

/** Set by the server's first message (`start`); the process may be forked before the server has read its config. */
let options: HostOptions;

/** PGlite's code compiled and its file system image read, while the options are awaited. */
const artifacts = (async () => {
  const dist = import.meta.resolve('@electric-sql/pglite');
  const [wasm, image] = await Promise.all([
    readFile(new URL('./pglite.wasm', dist)),
    readFile(new URL('./pglite.data', dist)),
  ]);
  return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([image]) };
})();
artifacts.catch(() => undefined); // awaited by main; PGlite then says what is wrong

/** The server's `start`; a server gone before sending it (its config was wrong) ends this process. */
function startMessage(): Promise<HostOptions> {
  return new Promise((resolve) => {
    const leave = () => process.exit(0);
    process.once('disconnect', leave);
    process.once('message', (message: ServerMessage) => {
      process.off('disconnect', leave);
      if (message.type === 'start') resolve(message.options);
      else leave();
    });
  });
}

interface Batch {
  bytes: Uint8Array;
  /** Ends with Sync or Query: the answer must end with ReadyForQuery. */
  complete: boolean;
  /** Its first statement's tenant tag ('' when untagged: start-ups, long work). */
  tenant: string;
}

const PARSE = 0x50; // 'P'
const QUERY = 0x51; // 'Q'
/** The tag is read from this many bytes of a statement's text at most (a tenant id of up to 2 KiB). */
const TAG_BYTES = 4_200;

/** The tenant tag at the start of a batch's first statement (a Parse or a simple Query). */
function tenantOf(bytes: Uint8Array): string {
  let at = 5;
  if (bytes[0] === PARSE) {
    const nameEnd = bytes.indexOf(0, at);
    if (nameEnd < 0) return '';
    at = nameEnd + 1;
  } else if (bytes[0] !== QUERY) return '';
  const head = Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.max(0, Math.min(TAG_BYTES, bytes.length - at)));
  // Only a tagged statement is read further than its first bytes.
  if (head.toString('latin1', 0, TAG_OPEN.length) !== TAG_OPEN) return '';
  return taggedTenant(head.toString('latin1')) ?? '';
}

interface Connection {
  socket: Socket;
  framer: WireFramer;
  limitMs: number;
  /** Batches of this connection not yet run (in order). */
  pending: Batch[];
  closed: boolean;
}

/** [0] = when the running batch started (ms since epoch, 0 when idle), [1] = its limit in ms. */
const busy = new Float64Array(new SharedArrayBuffer(16));

/**
 * The watchdog runs on its own thread: PGlite blocks this one while a statement runs. It writes
 * why it stopped the process where the server looks, then kills it (no handler can run here).
 */
function startWatchdog(): Worker {
  const code = `
    const { workerData } = require('node:worker_threads');
    const { writeFileSync } = require('node:fs');
    const busy = new Float64Array(workerData.buffer);
    setInterval(() => {
      const since = busy[0];
      if (since > 0 && Date.now() - since > busy[1]) {
        writeFileSync(workerData.marker, JSON.stringify({ limitMs: busy[1], ranMs: Date.now() - since }));
        process.kill(process.pid, 'SIGKILL');
      }
    }, 50);`;
  const worker = new Worker(code, {
    eval: true,
    workerData: { buffer: busy.buffer, marker: path.join(options.socketDir, WATCHDOG_MARKER) },
  });
  worker.unref();
  return worker;
}

/**
 * One server per data directory: a second would corrupt it. The lock names the holder's pid; a
 * holder that is still closing (its server was just killed) is given a few seconds to finish.
 */
async function lockDataDir(dataDir: string): Promise<string> {
  const lockFile = `${dataDir}.lock`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return lockFile;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lockFile, 'utf8'));
    if (!(holder > 0 && holder !== process.pid && isAlive(holder))) rmSync(lockFile, { force: true });
    else if (Date.now() > until) throw new Error(`the embedded database ${dataDir} is in use by process ${holder}`);
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A simple-protocol Query message. */
function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message[0] = 0x51;
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return new Uint8Array(message);
}

/** Sync, then ROLLBACK: brings the one session back to idle whatever a departed client left. */
const END_SESSION_WORK = new Uint8Array(Buffer.concat([Buffer.from([0x53, 0, 0, 0, 4]), simpleQuery('ROLLBACK')]));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

async function main(): Promise<void> {
  options = await startMessage();
  const lockFile = await lockDataDir(options.dataDir);
  const db = await PGlite.create({
    dataDir: options.dataDir,
    extensions: PGLITE_EXTENSIONS,
    postgresqlconf: [`shared_buffers=${options.sharedBuffers}`],
    ...(await artifacts.catch(() => ({}))),
  });
  startWatchdog();

  const connections = new Set<Connection>();
  const queue: Connection[] = [];
  /** The connection whose transaction is open: only it may run until it ends. */
  let owner: Connection | undefined;
  let ownerActiveAt = 0;
  let running = false;
  // PGlite has no checkpointer: without this, a restart after kill -9 would replay every change
  // since the last clean start. When the session is free, the files are brought up to date.
  setInterval(() => {
    if (running || owner || queue.length > 0) return;
    void db.runExclusive(() => db.execProtocolRaw(simpleQuery('CHECKPOINT'))).catch(() => undefined);
  }, CHECKPOINT_MS).unref();
  // A client that keeps a transaction open without using it would hold the one session for good.
  setInterval(() => {
    if (owner && owner.pending.length === 0 && Date.now() - ownerActiveAt > IDLE_IN_TRANSACTION_MS) {
      console.error('embedded database: a transaction stayed idle too long; its connection was closed');
      owner.socket.destroy();
    }
  }, 1000).unref();

  /**
   * Runs one batch. Answers the session's state from the closing ReadyForQuery ('I' idle, 'T' in a
   * transaction, 'E' in a failed one), 'open' when the batch was not complete, or undefined when a
   * complete batch got no ReadyForQuery (PGlite lost its way).
   */
  const runBatch = async (connection: Connection, batch: Batch): Promise<'I' | 'T' | 'E' | 'open' | undefined> => {
    busy[1] = connection.limitMs;
    busy[0] = Date.now();
    let tail = Buffer.alloc(0);
    try {
      await db.runExclusive(() =>
        db.execProtocolRawStream(batch.bytes, {
          onRawData: (data) => {
            const chunk = Buffer.from(data);
            tail = Buffer.concat([tail, chunk.subarray(Math.max(0, chunk.length - READY_FOR_QUERY_BYTES))]).subarray(
              -READY_FOR_QUERY_BYTES,
            );
            if (!connection.closed) connection.socket.write(chunk);
          },
        }),
      );
    } finally {
      busy[0] = 0;
    }
    if (!batch.complete) return 'open';
    if (tail.length !== READY_FOR_QUERY_BYTES || tail[0] !== READY_FOR_QUERY) return undefined;
    const status = String.fromCharCode(tail[5] ?? 0);
    return status === 'I' || status === 'T' || status === 'E' ? status : undefined;
  };

  /** When each tenant's batch last started (a turn number). */
  const servedAt = new Map<string, number>();
  let turn = 0;
  /** How long each tenant's batches typically run (ms, a moving average). */
  const typicalMs = new Map<string, number>();
  /** A tagged tenant not known to run long statements. */
  const isLight = (tenant: string) => tenant !== '' && (typicalMs.get(tenant) ?? 0) <= LIGHT_MS;
  /** When the last batch ended, when it was a light tenant's. */
  let lightEndedAt: number | undefined;
  /** Since when a heavy tenant's batch has waited for light ones (0: none waits). */
  let heldSince = 0;
  /** Called when a light tenant's batch arrives while the engine waits for one. */
  let lightArrived: (() => void) | undefined;
  const lightTenantWaitMs = options.lightTenantWaitMs ?? LIGHT_TENANT_WAIT_MS;

  /**
   * The connection whose next batch runs: the owner's, else the first of the tenant served longest
   * ago (among light tenants only, with `lightOnly`); -1 when none.
   */
  const next = (lightOnly = false): number => {
    if (owner) return queue.indexOf(owner);
    let chosen = -1;
    let longestAgo = Number.POSITIVE_INFINITY;
    for (const [index, connection] of queue.entries()) {
      const tenant = connection.pending[0]?.tenant ?? '';
      if (lightOnly && !isLight(tenant)) continue;
      const served = servedAt.get(tenant) ?? -1;
      if (served < longestAgo) {
        chosen = index;
        longestAgo = served;
      }
    }
    return chosen;
  };

  /** The connection to run instead of `chosen`'s heavy batch: a light tenant's, when one may go first (header). */
  const lightBefore = async (chosen: number): Promise<number> => {
    const tenant = queue[chosen]?.pending[0]?.tenant;
    const heavyMs = typicalMs.get(tenant ?? '') ?? 0;
    const windowMs = Math.min(lightTenantWaitMs, heavyMs * HOLD_SHARE);
    const now = performance.now();
    if (!tenant || owner || lightEndedAt === undefined || heavyMs <= LIGHT_MS) {
      heldSince = 0;
      return chosen;
    }
    if (heldSince === 0) heldSince = now;
    const heldUntil = heldSince + heavyMs;
    const ready = next(true);
    if (heldUntil > now && ready >= 0) return ready;
    const waitMs = Math.min(lightEndedAt + windowMs, heldUntil) - now;
    if (waitMs <= 0) {
      heldSince = 0;
      return chosen;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      lightArrived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    lightArrived = undefined;
    const arrived = next(true);
    if (arrived >= 0) return arrived;
    heldSince = 0;
    return next();
  };

  const pump = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      for (;;) {
        // The engine's statement held this thread: what arrived meanwhile is read before choosing.
        await setImmediatePromise();
        const index = await lightBefore(next());
        const connection = index >= 0 ? queue[index] : undefined;
        if (!connection) break;
        const batch = connection.pending.shift();
        if (connection.pending.length === 0) queue.splice(index, 1);
        if (!batch || connection.closed) continue;
        if (servedAt.size > MAX_TENANTS_KEPT) {
          servedAt.clear();
          typicalMs.clear();
        }
        servedAt.set(batch.tenant, turn++);
        const started = performance.now();
        let state: Awaited<ReturnType<typeof runBatch>>;
        try {
          state = await runBatch(connection, batch);
        } catch (error) {
          console.error(`embedded database: ${messageOf(error)}`);
        }
        const ranMs = performance.now() - started;
        const before = typicalMs.get(batch.tenant);
        typicalMs.set(batch.tenant, before === undefined ? ranMs : before + (ranMs - before) / 4);
        lightEndedAt = isLight(batch.tenant) ? performance.now() : undefined;
        if (!state) {
          // The client would wait forever, and the session's state is unknown: start afresh.
          console.error('embedded database: a statement got no complete answer; restarting the engine');
          process.exit(1);
        }
        // Until its statement is complete and its transaction over, the session is this connection's.
        owner = state !== 'I' && !connection.closed ? connection : undefined;
        ownerActiveAt = Date.now();
      }
    } finally {
      running = false;
    }
  };

  const enqueue = (connection: Connection, batch: Batch): void => {
    if (connection.pending.length === 0) queue.push(connection);
    connection.pending.push(batch);
    if (lightArrived && isLight(batch.tenant)) lightArrived();
    void pump();
  };

  const onFrame = (connection: Connection, frame: Frame): void => {
    switch (frame.kind) {
      case 'encryption-request':
        connection.socket.write('N');
        return;
      case 'cancel-request':
      case 'terminate':
        connection.socket.end();
        return;
      case 'startup':
        if (frame.params.application_name === BACKGROUND_APPLICATION) connection.limitMs = options.limitsMs.background;
        enqueue(connection, { bytes: frame.bytes, complete: true, tenant: '' });
        return;
      case 'messages':
        enqueue(connection, { bytes: frame.bytes, complete: frame.complete, tenant: tenantOf(frame.bytes) });
    }
  };

  const closeConnection = (connection: Connection): void => {
    if (connection.closed) return;
    connection.closed = true;
    connections.delete(connection);
    connection.pending.length = 0;
    const index = queue.indexOf(connection);
    if (index >= 0) queue.splice(index, 1);
    // A client gone mid-transaction must not keep the one session locked.
    if (owner === connection) {
      owner = undefined;
      // Whatever it left is ended: an unfinished extended-protocol statement (Sync), a transaction.
      void db.runExclusive(() => db.execProtocolRaw(END_SESSION_WORK)).then(pump, pump);
    }
  };

  const server = createServer((socket) => {
    const connection: Connection = {
      socket,
      framer: new WireFramer(),
      limitMs: options.limitsMs.request,
      pending: [],
      closed: false,
    };
    connections.add(connection);
    socket.on('data', (chunk) => {
      try {
        for (const frame of connection.framer.push(chunk)) onFrame(connection, frame);
      } catch (error) {
        console.error(`embedded database: dropped a connection: ${messageOf(error)}`);
        socket.destroy();
      }
    });
    socket.on('error', () => closeConnection(connection));
    socket.on('close', () => closeConnection(connection));
  });
  const socketPath = path.join(options.socketDir, `.s.PGSQL.${SOCKET_PORT}`);
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    server.close();
    for (const connection of connections) connection.socket.destroy();
    await db.close().catch(() => undefined);
    rmSync(lockFile, { force: true });
    process.exit(0);
  };
  const send = (message: HostMessage) => process.send?.(message);
  process.on('message', (message: ServerMessage) => {
    if (message.type === 'stop') void stop();
    else if (message.type === 'ping') send({ type: 'pong' });
  });
  // The server is gone (even by kill -9): close the files cleanly and leave.
  process.on('disconnect', () => void stop());
  // Ctrl-C reaches the whole process group: the server stops this process itself, after its
  // in-flight requests are done, so the signals are ignored here.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
  send({ type: 'ready' });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // Said to the server (which names it in its own error), then the process ends.
  if (process.send) process.send({ type: 'failed', message } satisfies HostMessage, () => process.exit(1));
  else {
    console.error(`embedded database failed to start: ${message}`);
    process.exit(1);
  }
});
