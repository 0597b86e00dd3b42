/**
 * FTP storage of database backups (issue 13 §2): a remote folder on an FTP / FTPS server, reached with
 * basic-ftp. Every operation opens its own connection (with a connect and transfer timeout), works
 * inside the configured remote folder only, and closes its client. Failures are `FtpStorageError`s
 * whose `failure` says what went wrong and whose message is an English sentence naming the server,
 * the operation and the file (never the password), for the log; their `key` is what a user reads (a
 * message in both languages).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { BackupMessageKey } from '@gantry/shared';
import { Client, FTPError } from 'basic-ftp';

export type FtpFailure =
  | 'dns'
  | 'refused'
  | 'timeout'
  | 'tls'
  | 'login'
  | 'permission'
  | 'notFound'
  | 'diskFull'
  | 'interrupted'
  | 'sizeMismatch'
  | 'notConfigured'
  | 'other';

export class FtpStorageError extends Error {
  readonly failure: FtpFailure;
  /** The failure as a message key (both languages, without the server's own words): `ftp.error.<failure>` unless given. */
  readonly key: BackupMessageKey;
  constructor(failure: FtpFailure, message: string, options?: { cause?: unknown; key?: BackupMessageKey }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FtpStorageError';
    this.failure = failure;
    this.key = options?.key ?? `ftp.error.${failure}`;
  }
}

export interface FtpRemoteFile {
  name: string;
  size: number;
  modifiedAt: Date | null;
}

export interface FtpTransferOptions {
  signal?: AbortSignal;
  onProgress?: (bytes: number) => void;
}

export interface FtpStorage {
  /** true when the administrator enabled FTP and it is configured */
  enabled(): Promise<boolean>;
  /** files (not folders) directly in `dir` (a path relative to the configured remote folder, '' = that folder); [] when dir does not exist. Files being uploaded (`*.part`) are left out. */
  list(dir: string): Promise<FtpRemoteFile[]>;
  /** streams a local file up to `remotePath` (relative; parent folders created), resuming where the server allows, then verifies the remote size equals the local size (else FtpStorageError 'sizeMismatch'); on failure removes the partial remote file when it can */
  push(localPath: string, remotePath: string, opts?: FtpTransferOptions): Promise<void>;
  /** small text file up (sidecar metadata) */
  pushText(text: string, remotePath: string): Promise<void>;
  /** streams remotePath down into localPath (written to localPath + '.part' then renamed), verifying the size */
  fetch(remotePath: string, localPath: string, opts?: FtpTransferOptions): Promise<void>;
  /** a small remote text file, refusing more than maxBytes */
  fetchText(remotePath: string, maxBytes: number): Promise<string>;
  /** removes a remote file; missing is not an error */
  remove(remotePath: string): Promise<void>;
}

export type FtpTls = 'none' | 'explicit' | 'implicit';

/** Where and how to connect (the password decrypted). */
export interface FtpConnection {
  host: string;
  port: number;
  user: string;
  password: string;
  /** absolute folder on the server that holds everything Gantry writes, e.g. '/gantry' */
  remoteFolder: string;
  tls: FtpTls;
  /** accept a certificate no trusted authority signed (self-signed test servers) */
  allowUntrustedCertificate: boolean;
}

/** The stored settings, as the storage needs them. */
export interface FtpConnectionSource {
  /** the connection when the administrator enabled FTP and configured it, else null */
  connection(): Promise<FtpConnection | null>;
}

export interface FtpLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface FtpStorageDeps {
  settings: FtpConnectionSource;
  log?: FtpLog;
  /** connect, reply and transfer-idle timeout (ms); 30 s by default */
  timeoutMs?: number;
  /** reconnections that resume an interrupted transfer (push and fetch); 2 by default */
  resumeAttempts?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const PART_SUFFIX = '.part';

/** What an operation was doing when it failed: decides 550 → notFound or permission. */
type Operation = 'connect' | 'read' | 'write' | 'list' | 'remove' | 'mkdir';

// ---------------------------------------------------------------------------------------------
// Paths

/** A relative remote path checked to stay inside the remote folder: its segments, or throws. */
export function remoteSegments(relative: string, allowEmpty: boolean): string[] {
  if (typeof relative !== 'string') throw pathError(String(relative), 'is not text');
  if (relative.includes('\0')) throw pathError(relative, 'contains a NUL character');
  if (relative.includes('\\')) throw pathError(relative, 'contains a backslash');
  if (relative.startsWith('/')) throw pathError(relative, 'is absolute');
  if (/[\r\n]/.test(relative)) throw pathError(relative, 'contains a line break');
  const segments = relative.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..')) throw pathError(relative, 'leaves the remote folder (..)');
  if (!allowEmpty && segments.length === 0) throw pathError(relative, 'names no file');
  return segments;
}

function pathError(relative: string, why: string): FtpStorageError {
  return new FtpStorageError('other', `The remote path ${JSON.stringify(relative)} is refused: it ${why}.`);
}

/** The configured remote folder as an absolute path without a trailing slash ('' for the root). */
export function normalizeRemoteFolder(folder: string): string {
  const trimmed = folder.trim();
  if (trimmed.includes('\0') || trimmed.includes('\\') || /[\r\n]/.test(trimmed)) {
    throw new FtpStorageError('notConfigured', 'The FTP remote folder contains a character that is not allowed.', {
      key: 'ftp.error.badFolder',
    });
  }
  const segments = trimmed.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    throw new FtpStorageError('notConfigured', 'The FTP remote folder must not contain "..".', {
      key: 'ftp.error.badFolder',
    });
  }
  return segments.length === 0 ? '' : `/${segments.join('/')}`;
}

function absolute(folder: string, segments: string[]): string {
  return segments.length === 0 ? folder || '/' : `${folder}/${segments.join('/')}`;
}

// ---------------------------------------------------------------------------------------------
// Errors

function errorCode(error: unknown): string | number | undefined {
  if (error instanceof FTPError) return error.code;
  if (error && typeof error === 'object' && 'code' in error) {
    const { code } = error;
    if (typeof code === 'string' || typeof code === 'number') return code;
  }
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

interface Where {
  server: string;
  operation: Operation;
  /** the remote path concerned, for the message */
  remote?: string;
}

/** Any error of a step → an FtpStorageError saying what failed, where. */
export function classifyFtpError(error: unknown, where: Where): FtpStorageError {
  if (error instanceof FtpStorageError) return error;
  const code = errorCode(error);
  const text = errorText(error);
  const server = where.server;
  const file = where.remote ? ` "${where.remote}"` : '';
  const reply = error instanceof FTPError ? ` The server answered: ${text.trim()}` : ` (${text})`;
  const make = (failure: FtpFailure, message: string) => new FtpStorageError(failure, message, { cause: error });

  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') {
    return make('dns', `The FTP server name ${server} could not be resolved (DNS).`);
  }
  if (code === 'ENOSPC') return make('diskFull', `There is no space left on this machine for${file || ' the file'}.`);
  if (code === 'ECONNREFUSED') return make('refused', `The FTP server ${server} refused the connection.`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return make('refused', `The FTP server ${server} cannot be reached from this machine.`);
  }
  if (code === 'ETIMEDOUT' || /^Timeout \(/.test(text) || /Client is closed because Timeout/.test(text)) {
    return make(
      'timeout',
      where.operation === 'connect'
        ? `The FTP server ${server} did not answer in time.`
        : `The FTP server ${server} stopped answering during the ${describe(where.operation)}${file}.`,
    );
  }
  if (
    (typeof code === 'string' && (TLS_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL'))) ||
    /\b(SSL|TLS)\b|certificate|handshake/i.test(error instanceof FTPError ? '' : text)
  ) {
    return make('tls', `The TLS connection to the FTP server ${server} failed: ${tlsReason(code, text)}.`);
  }
  if (typeof code === 'number') {
    if (code === 530 || code === 331 || code === 332) {
      if (/encrypt|SSL|TLS/i.test(text)) {
        return make('tls', `The FTP server ${server} requires an encrypted (TLS) connection.${reply}`);
      }
      return make('login', `The FTP server ${server} refused the user name or password.${reply}`);
    }
    if (code === 452 || code === 552) {
      return make('diskFull', `The FTP server ${server} has no space left for${file || ' the file'}.${reply}`);
    }
    if (code === 451 && where.operation === 'write' && /writ|space|disk|quota/i.test(text)) {
      return make('diskFull', `The FTP server ${server} could not write${file || ' the file'} (disk full?).${reply}`);
    }
    if (code === 550 || code === 553 || code === 450) {
      if (where.operation === 'read' || where.operation === 'remove') {
        return make('notFound', `The file${file} does not exist on the FTP server ${server}.${reply}`);
      }
      return make(
        'permission',
        `The FTP server ${server} refused the ${describe(where.operation)}${file} (permission).${reply}`,
      );
    }
    if (code === 421 || code === 426) {
      return make(
        'interrupted',
        `The FTP server ${server} closed the connection during the ${describe(where.operation)}${file}.${reply}`,
      );
    }
    if (code === 534 || code === 522 || code === 533) {
      return make('tls', `The FTP server ${server} refused the TLS setting.${reply}`);
    }
    return make('other', `The FTP ${describe(where.operation)}${file} on ${server} failed.${reply}`);
  }
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /FIN packet|closed connection|Socket closed|transmission error|Client is closed|User closed client|Premature close/i.test(
      text,
    )
  ) {
    if (where.operation === 'connect') {
      return make('refused', `The FTP server ${server} closed the connection before answering (${text}).`);
    }
    return make(
      'interrupted',
      `The connection to the FTP server ${server} was lost during the ${describe(where.operation)}${file}.`,
    );
  }
  return make('other', `The FTP ${describe(where.operation)}${file} on ${server} failed (${text}).`);
}

function tlsReason(code: string | number | undefined, text: string): string {
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN') {
    return 'the certificate is self-signed (allow untrusted certificates to accept it)';
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'the certificate does not name this host';
  if (code === 'CERT_HAS_EXPIRED') return 'the certificate has expired';
  if (typeof code === 'string' && (code.startsWith('UNABLE_TO') || code === 'CERT_UNTRUSTED')) {
    return 'the certificate is not signed by a trusted authority (allow untrusted certificates to accept it)';
  }
  return text.replace(/\s*\(control socket\)$/, '');
}

function describe(operation: Operation): string {
  switch (operation) {
    case 'connect':
      return 'connection';
    case 'read':
      return 'download of';
    case 'write':
      return 'upload of';
    case 'list':
      return 'listing of';
    case 'remove':
      return 'removal of';
    case 'mkdir':
      return 'creation of the folder';
  }
}

// ---------------------------------------------------------------------------------------------
// Sessions

/** One connected, logged-in client; closed by `close()`. */
export class FtpSession {
  readonly server: string;
  readonly folder: string;
  private constructor(
    readonly client: Client,
    readonly connection: FtpConnection,
  ) {
    this.server = `${connection.host}:${connection.port}`;
    this.folder = normalizeRemoteFolder(connection.remoteFolder);
  }

  static async open(connection: FtpConnection, timeoutMs: number, signal?: AbortSignal): Promise<FtpSession> {
    const client = new Client(timeoutMs);
    const session = new FtpSession(client, connection);
    const stop = () => client.close();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      if (signal?.aborted) throw new FtpStorageError('interrupted', 'The FTP operation was cancelled.');
      const tlsOptions = {
        host: connection.host,
        rejectUnauthorized: !connection.allowUntrustedCertificate,
        servername: isIpAddress(connection.host) ? undefined : connection.host,
      };
      // The steps of basic-ftp's access(), taken one by one so that a refused AUTH TLS is named as such.
      if (connection.tls === 'implicit') await client.connectImplicitTLS(connection.host, connection.port, tlsOptions);
      else await client.connect(connection.host, connection.port);
      if (connection.tls === 'explicit') {
        try {
          await client.useTLS(tlsOptions);
        } catch (error) {
          if (!(error instanceof FTPError)) throw error;
          throw new FtpStorageError(
            'tls',
            `The FTP server ${session.server} does not offer explicit TLS (it refused AUTH TLS). The server answered: ${error.message.trim()}`,
            { cause: error, key: 'ftp.error.noExplicitTls' },
          );
        }
      }
      await client.sendIgnoringError('OPTS UTF8 ON');
      await client.login(connection.user, connection.password);
      await client.useDefaultSettings();
      return session;
    } catch (error) {
      client.close();
      if (signal?.aborted) throw cancelled(session.server);
      throw classifyFtpError(error, { server: session.server, operation: 'connect' });
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  path(segments: string[]): string {
    return absolute(this.folder, segments);
  }

  /** Runs `step`, turning its failure into an FtpStorageError of `operation`; closes the client on abort. */
  async step<T>(
    operation: Operation,
    remote: string | undefined,
    step: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const stop = () => this.client.close();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      if (signal?.aborted) throw cancelled(this.server);
      return await step();
    } catch (error) {
      if (signal?.aborted) throw cancelled(this.server);
      throw classifyFtpError(error, { server: this.server, operation, remote });
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  /** Creates (when missing) and enters the folder of `segments` under the remote folder. */
  async enterFolder(segments: string[]): Promise<void> {
    const target = this.path(segments);
    await this.step('mkdir', target, () => this.client.ensureDir(target));
  }

  /** Remote size of a file, or null when it does not exist. */
  async sizeOf(remote: string): Promise<number | null> {
    try {
      return await this.client.size(remote);
    } catch (error) {
      const code = errorCode(error);
      if (code === 550 || code === 450) return null;
      if (code === 500 || code === 502 || code === 504) return this.sizeFromListing(remote);
      throw classifyFtpError(error, { server: this.server, operation: 'read', remote });
    }
  }

  private async sizeFromListing(remote: string): Promise<number | null> {
    const dir = path.posix.dirname(remote);
    const name = path.posix.basename(remote);
    const entries = await this.step('list', dir, () => this.client.list(dir)).catch((error: unknown) => {
      if (error instanceof FtpStorageError && (error.failure === 'permission' || error.failure === 'notFound'))
        return [];
      throw error;
    });
    const entry = entries.find((candidate) => candidate.isFile && candidate.name === name);
    return entry ? entry.size : null;
  }

  close(): void {
    this.client.close();
  }
}

function cancelled(server: string): FtpStorageError {
  return new FtpStorageError('interrupted', `The FTP transfer with ${server} was cancelled.`);
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** Retries a transfer's interruptions: true for failures a new connection may get past. */
function resumable(error: unknown): boolean {
  return error instanceof FtpStorageError && (error.failure === 'interrupted' || error.failure === 'timeout');
}

// ---------------------------------------------------------------------------------------------
// The storage

export function createFtpStorage(deps: FtpStorageDeps): FtpStorage {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const resumeAttempts = deps.resumeAttempts ?? 2;

  /**
   * Runs `transfer(attempt)` until it succeeds, again (attempt 1, 2…) after an interruption or a timeout,
   * up to resumeAttempts times; a failure after resuming names the first one and how resuming ended.
   */
  async function withResumes(
    conn: FtpConnection,
    operation: 'read' | 'write',
    target: string,
    signal: AbortSignal | undefined,
    what: 'upload' | 'download',
    transfer: (attempt: number) => Promise<void>,
  ): Promise<void> {
    let firstFailure: FtpStorageError | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        await transfer(attempt);
        return;
      } catch (error) {
        const failure = classifyFtpError(error, { server: `${conn.host}:${conn.port}`, operation, remote: target });
        firstFailure ??= failure;
        if (signal?.aborted || !resumable(failure) || attempt >= resumeAttempts) {
          throw finalFailure(attempt, firstFailure, failure);
        }
        deps.log?.info(
          { remote: target, attempt: attempt + 1, failure: failure.failure },
          `resuming an interrupted FTP ${what}`,
        );
      }
    }
  }

  async function connection(): Promise<FtpConnection> {
    const found = await deps.settings.connection();
    if (!found) {
      throw new FtpStorageError('notConfigured', 'FTP storage is not enabled or not configured (settings → FTP).');
    }
    return found;
  }

  async function withSession<T>(
    signal: AbortSignal | undefined,
    work: (session: FtpSession) => Promise<T>,
    conn?: FtpConnection,
  ): Promise<T> {
    const session = await FtpSession.open(conn ?? (await connection()), timeoutMs, signal);
    try {
      return await work(session);
    } finally {
      session.close();
    }
  }

  /** Best effort: removes a remote file with a fresh connection, saying so in the log when it cannot. */
  async function removeQuietly(conn: FtpConnection, remote: string): Promise<void> {
    try {
      await withSession(
        undefined,
        (session) => session.step('remove', remote, () => session.client.remove(remote, true)),
        conn,
      );
    } catch (error) {
      deps.log?.warn(
        { remote, failure: error instanceof FtpStorageError ? error.failure : undefined },
        'could not remove a partial FTP upload',
      );
    }
  }

  return {
    async enabled() {
      return (await deps.settings.connection()) !== null;
    },

    async list(dir) {
      const segments = remoteSegments(dir, true);
      return withSession(undefined, async (session) => {
        const target = session.path(segments);
        // Entering the folder first tells "missing" from "empty" on every server.
        try {
          await session.client.cd(target);
        } catch (error) {
          const code = errorCode(error);
          if (code === 550 || code === 450) return [];
          throw classifyFtpError(error, { server: session.server, operation: 'list', remote: target });
        }
        const entries = await session.step('list', target, () => session.client.list());
        return entries
          .filter((entry) => entry.isFile && !entry.name.endsWith(PART_SUFFIX))
          .map((entry) => ({
            name: entry.name,
            size: entry.size,
            modifiedAt: entry.modifiedAt ?? parseRawDate(entry.rawModifiedAt),
          }))
          .sort((a, b) => a.name.localeCompare(b.name));
      });
    },

    async push(localPath, remotePath, opts = {}) {
      const segments = remoteSegments(remotePath, false);
      const localSize = (await stat(localPath)).size;
      const conn = await connection();
      const folder = normalizeRemoteFolder(conn.remoteFolder);
      const target = absolute(folder, segments);
      // Written beside its final name and renamed when whole, so a list never shows a partial file.
      const partial = `${target}${PART_SUFFIX}`;
      try {
        await withResumes(conn, 'write', target, opts.signal, 'upload', async (attempt) => {
          await withSession(
            opts.signal,
            async (session) => {
              await session.enterFolder(segments.slice(0, -1));
              let offset = 0;
              if (attempt > 0) {
                // A server that drops the data connection may have run out of space: a small probe
                // file says so (the reply to a full transfer is lost with its connection).
                await probeSpace(session, absolute(folder, [...segments.slice(0, -1), '.gantry-space-probe']), target);
                // Resume: what the server kept of the interrupted upload, when it is a prefix of ours.
                const kept = await session.sizeOf(partial);
                offset = kept !== null && kept <= localSize ? kept : 0;
              }
              session.client.trackProgress((info) => opts.onProgress?.(offset + info.bytes));
              const source = createReadStream(localPath, { start: offset, highWaterMark: 1 << 20 });
              try {
                await session.step(
                  'write',
                  target,
                  () =>
                    offset > 0
                      ? session.client.appendFrom(source, partial)
                      : session.client.uploadFrom(source, partial),
                  opts.signal,
                );
              } finally {
                session.client.trackProgress();
                source.destroy();
              }
              const remoteSize = await session.sizeOf(partial);
              if (remoteSize !== localSize) {
                throw new FtpStorageError(
                  'sizeMismatch',
                  `The upload of "${target}" to ${session.server} is incomplete: the server holds ${remoteSize ?? 0} bytes of ${localSize}.`,
                );
              }
              await session.step('write', target, () => session.client.rename(partial, target));
            },
            conn,
          );
        });
      } catch (error) {
        await removeQuietly(conn, partial);
        throw error;
      }
    },

    async pushText(text, remotePath) {
      const segments = remoteSegments(remotePath, false);
      await withSession(undefined, async (session) => {
        await session.enterFolder(segments.slice(0, -1));
        const target = session.path(segments);
        await session.step('write', target, () =>
          session.client.uploadFrom(Readable.from([Buffer.from(text, 'utf8')]), target),
        );
      });
    },

    async fetch(remotePath, localPath, opts = {}) {
      const segments = remoteSegments(remotePath, false);
      const conn = await connection();
      const target = absolute(normalizeRemoteFolder(conn.remoteFolder), segments);
      const partial = `${localPath}${PART_SUFFIX}`;
      let expected: number | null = null;
      try {
        await withResumes(conn, 'read', target, opts.signal, 'download', async (attempt) => {
          await withSession(
            opts.signal,
            async (session) => {
              const size = await session.sizeOf(target);
              if (size === null) {
                throw new FtpStorageError(
                  'notFound',
                  `The file "${target}" does not exist on the FTP server ${session.server}.`,
                );
              }
              if (expected !== null && size !== expected) {
                throw new FtpStorageError(
                  'sizeMismatch',
                  `The file "${target}" changed on ${session.server} during its download.`,
                );
              }
              expected = size;
              const have =
                attempt > 0
                  ? await stat(partial).then(
                      (s) => s.size,
                      () => 0,
                    )
                  : 0;
              const offset = have <= size ? have : 0;
              session.client.trackProgress((info) => opts.onProgress?.(offset + info.bytes));
              const sink = createWriteStream(partial, { flags: offset > 0 ? 'r+' : 'w', start: offset });
              try {
                await session.step('read', target, () => session.client.downloadTo(sink, target, offset), opts.signal);
              } finally {
                session.client.trackProgress();
                await new Promise<void>((resolve) => {
                  if (sink.closed) resolve();
                  else sink.end(() => resolve());
                });
              }
              const got = (await stat(partial)).size;
              if (got !== size) {
                throw new FtpStorageError(
                  'sizeMismatch',
                  `The download of "${target}" from ${session.server} is incomplete: ${got} bytes of ${size}.`,
                );
              }
            },
            conn,
          );
          await rename(partial, localPath);
        });
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },

    async fetchText(remotePath, maxBytes) {
      const segments = remoteSegments(remotePath, false);
      return withSession(undefined, async (session) => {
        const target = session.path(segments);
        const size = await session.sizeOf(target);
        if (size === null) {
          throw new FtpStorageError(
            'notFound',
            `The file "${target}" does not exist on the FTP server ${session.server}.`,
          );
        }
        if (size > maxBytes) {
          throw new FtpStorageError(
            'other',
            `The file "${target}" on ${session.server} is larger than ${maxBytes} bytes.`,
          );
        }
        const chunks: Buffer[] = [];
        let total = 0;
        const sink = new Writable({
          write(chunk: Buffer, _encoding, done) {
            total += chunk.length;
            if (total > maxBytes) {
              done(
                new FtpStorageError(
                  'other',
                  `The file "${target}" on ${session.server} is larger than ${maxBytes} bytes.`,
                ),
              );
              return;
            }
            chunks.push(chunk);
            done();
          },
        });
        await session.step('read', target, () => session.client.downloadTo(sink, target));
        return Buffer.concat(chunks).toString('utf8');
      });
    },

    async remove(remotePath) {
      const segments = remoteSegments(remotePath, false);
      await withSession(undefined, async (session) => {
        const target = session.path(segments);
        try {
          await session.client.remove(target);
        } catch (error) {
          const code = errorCode(error);
          if ((code === 550 || code === 450) && (await session.sizeOf(target)) === null) return;
          throw classifyFtpError(error, { server: session.server, operation: 'write', remote: target });
        }
      });
    },
  };
}

/**
 * The failure a transfer reports after its resume attempts: what the last attempt found when it says
 * more (disk full, login, permission, not found), else the first interruption with why resuming failed.
 */
function finalFailure(attempt: number, first: FtpStorageError, last: FtpStorageError): FtpStorageError {
  if (attempt === 0 || first === last) return last;
  if (!['refused', 'dns', 'timeout', 'interrupted', 'other'].includes(last.failure)) return last;
  return new FtpStorageError(first.failure, `${first.message} Resuming failed: ${last.message}`, { cause: last });
}

/** Writes and removes a small file at `probe`: fails as diskFull (naming `target`) when the server cannot store it. */
async function probeSpace(session: FtpSession, probe: string, target: string): Promise<void> {
  try {
    await session.step('write', probe, () =>
      session.client.uploadFrom(Readable.from([Buffer.alloc(16 * 1024)]), probe),
    );
  } catch (error) {
    // Only a full disk is this probe's finding; anything else shows in the resumed transfer itself.
    if (error instanceof FtpStorageError && error.failure === 'diskFull') {
      const reply = error.cause instanceof FTPError ? ` The server answered: ${error.cause.message.trim()}` : '';
      throw new FtpStorageError(
        'diskFull',
        `The FTP server ${session.server} has no space left for "${target}": it dropped the upload and could not store a 16 KiB test file.${reply}`,
        { cause: error },
      );
    }
  } finally {
    await session.client.remove(probe, true).catch(() => undefined);
  }
}

/** basic-ftp leaves `modifiedAt` empty for Unix listings; their raw date ('Nov 23 05:40' / 'Nov 23 2025') is read here. */
export function parseRawDate(raw: string | undefined, now = new Date()): Date | null {
  if (!raw) return null;
  const match = /^([A-Za-z]{3})\s+(\d{1,2})\s+(?:(\d{4})|(\d{1,2}):(\d{2}))$/.exec(raw.trim());
  if (!match) return null;
  const month = MONTHS.indexOf(match[1]?.toLowerCase() ?? '');
  if (month < 0) return null;
  const day = Number(match[2]);
  if (match[3]) return new Date(Date.UTC(Number(match[3]), month, day));
  let year = now.getUTCFullYear();
  const date = new Date(Date.UTC(year, month, day, Number(match[4]), Number(match[5])));
  // Without a year the date is within the last six months: a future one belongs to last year.
  if (date.getTime() > now.getTime() + 24 * 3600_000) {
    year -= 1;
    date.setUTCFullYear(year);
  }
  return date;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * 'Test connection': connects, logs in, enters (creating) the remote folder, writes, reads back and
 * deletes a probe file. Says which step failed.
 */
export async function testFtpConnection(
  conn: FtpConnection,
  timeoutMs = 15_000,
): Promise<
  | { ok: true; detail: string; folder: string }
  | { ok: false; failure: FtpFailure; key: BackupMessageKey; detail: string }
> {
  let session: FtpSession | undefined;
  try {
    session = await FtpSession.open(conn, timeoutMs);
    const open = session;
    await open.enterFolder([]);
    const probe = open.path([`.gantry-probe-${process.pid}-${Date.now()}.txt`]);
    const text = `Gantry connection test ${new Date().toISOString()}`;
    await open.step('write', probe, () => open.client.uploadFrom(Readable.from([Buffer.from(text)]), probe));
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    });
    await open.step('read', probe, () => open.client.downloadTo(sink, probe));
    if (Buffer.concat(chunks).toString('utf8') !== text) {
      throw new FtpStorageError(
        'sizeMismatch',
        `The probe file read back from ${open.server} differs from the one written.`,
      );
    }
    await open.step('remove', probe, () => open.client.remove(probe));
    return {
      ok: true,
      detail: `Connected to ${open.server}, logged in, and wrote, read and deleted a file in "${open.folder || '/'}".`,
      folder: open.folder || '/',
    };
  } catch (error) {
    const failure = classifyFtpError(error, { server: `${conn.host}:${conn.port}`, operation: 'connect' });
    return { ok: false, failure: failure.failure, key: failure.key, detail: failure.message };
  } finally {
    session?.close();
  }
}

/**
 * The same storage, telling `onFailure` of each failed operation (its name and the failure's kind,
 * `other` for an error that is not an FtpStorageError): the metrics' FTP failures.
 */
export function reportingFtpFailures(
  storage: FtpStorage,
  onFailure: (operation: string, failure: FtpFailure | 'other') => void,
): FtpStorage {
  const reported =
    <A extends unknown[], R>(operation: string, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(...args);
      } catch (error) {
        onFailure(operation, error instanceof FtpStorageError ? error.failure : 'other');
        throw error;
      }
    };
  return {
    enabled: () => storage.enabled(),
    list: reported('list', (dir) => storage.list(dir)),
    push: reported('push', (localPath, remotePath, opts) => storage.push(localPath, remotePath, opts)),
    pushText: reported('pushText', (text, remotePath) => storage.pushText(text, remotePath)),
    fetch: reported('fetch', (remotePath, localPath, opts) => storage.fetch(remotePath, localPath, opts)),
    fetchText: reported('fetchText', (remotePath, maxBytes) => storage.fetchText(remotePath, maxBytes)),
    remove: reported('remove', (remotePath) => storage.remove(remotePath)),
  };
}
