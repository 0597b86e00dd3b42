import { isRecord } from '@gantry/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';

/**
 * A change that makes cached copies wrong. `all` empties every cache: what a bus delivers when it
 * may have missed changes (its connection to PostgreSQL was lost), and what a platform restore
 * publishes (every row changed).
 */
export type Invalidation =
  | { kind: 'session'; tokenHash: string }
  | { kind: 'user'; userId: string }
  | { kind: 'licence' }
  | { kind: 'settings' }
  /** A project's site changed (port, domain, HTTPS, certificate, state): listeners and maps follow it. */
  | { kind: 'site'; projectId: string }
  /** A template was published, changed, installed or removed: the gallery's cached pages go. */
  | { kind: 'templates' }
  /** A table of the project was published or deleted, or the project's data restored: cached definitions go. */
  | { kind: 'tables'; projectId: string }
  /**
   * Not a cache's change: node `node` replaces the whole platform (a platform restore), announced when
   * it starts and every few seconds while it runs (`restoring`), and when it ends. Every other node
   * refuses API calls meanwhile (platform-maintenance.ts).
   */
  | { kind: 'maintenance'; node: string; restoring: boolean; startTime: string }
  | { kind: 'all' };

export type Published = Invalidation;

/**
 * Tells every server process sharing the database that something changed, so that their caches
 * (sessions, the platform licence, settings, project owners, table definitions) drop it. Caches
 * also expire on their own after a few seconds: the bus makes changes show at once, the expiry
 * bounds what a missed message can cost.
 */
export interface InvalidationBus {
  /**
   * Announces `change`: this process forgets at once; the others when `db`'s transaction commits
   * (inside a transaction, pass its handle: a rolled-back change is then never announced to them),
   * or at once when `db` is the pool. Publish after the change is written, or inside its transaction.
   */
  publish(change: Published, db?: Database): Promise<void>;
  /** Calls `listener` for every change, this process's own included; returns the unsubscribe. */
  subscribe(listener: (change: Invalidation) => void): () => void;
  close(): Promise<void>;
}

/** Local delivery to the subscribers, shared by both implementations. */
class Subscribers {
  private readonly listeners = new Set<(change: Invalidation) => void>();

  add(listener: (change: Invalidation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  deliver(change: Invalidation): void {
    for (const listener of this.listeners) listener(change);
  }
}

/**
 * One process owns the database (embedded PGlite: the data directory is this process's): every
 * change is made here, so telling this process's caches is telling all of them.
 */
export class LocalInvalidationBus implements InvalidationBus {
  private readonly subscribers = new Subscribers();

  async publish(change: Published): Promise<void> {
    this.subscribers.deliver(change);
  }

  subscribe(listener: (change: Invalidation) => void): () => void {
    return this.subscribers.add(listener);
  }

  async close(): Promise<void> {}
}

/** The channel every server process of one database listens on (NOTIFY is per database). */
export const INVALIDATION_CHANNEL = 'gantry_invalidate';

/** The part of `pg.Client` the listener uses (a fake one in unit tests). */
export interface ListenerClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

export interface PostgresBusOptions {
  /** A new, unconnected client for the listening connection. */
  client: () => ListenerClient;
  /** Where `publish` without a transaction sends its NOTIFY (the request pool). */
  db: Database;
  log: { warn(fields: object, message: string): void; info(fields: object, message: string): void };
  /** First and longest wait before reconnecting; doubled at each failed attempt, with jitter. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often the listening connection is checked with a query (a silent network loss ends no socket). */
  pingMs?: number;
}

function parse(payload: string | undefined): Invalidation {
  try {
    const change: unknown = JSON.parse(payload ?? '');
    if (!isRecord(change)) return { kind: 'all' };
    if (change.kind === 'session' && typeof change.tokenHash === 'string')
      return { kind: 'session', tokenHash: change.tokenHash };
    if (change.kind === 'user' && typeof change.userId === 'string') return { kind: 'user', userId: change.userId };
    if ((change.kind === 'site' || change.kind === 'tables') && typeof change.projectId === 'string') {
      return { kind: change.kind, projectId: change.projectId };
    }
    if (
      change.kind === 'maintenance' &&
      typeof change.node === 'string' &&
      typeof change.restoring === 'boolean' &&
      typeof change.startTime === 'string'
    ) {
      return { kind: change.kind, node: change.node, restoring: change.restoring, startTime: change.startTime };
    }
    if (change.kind === 'licence' || change.kind === 'settings' || change.kind === 'templates') {
      return { kind: change.kind };
    }
  } catch {
    // Not ours, or from a newer version: forgetting everything is always safe.
  }
  return { kind: 'all' };
}

/**
 * Several processes may share one PostgreSQL: each LISTENs on a dedicated connection, and a change
 * is announced with `pg_notify` in the transaction that makes it, so that PostgreSQL delivers it to
 * every listener exactly when the change commits (and never when it rolls back). The listening
 * connection reconnects with backoff when it drops; since notifications sent meanwhile are lost,
 * every cache is emptied when it is lost and again once it is back.
 */
export class PostgresInvalidationBus implements InvalidationBus {
  private readonly subscribers = new Subscribers();
  private client: ListenerClient | undefined;
  private attempts = 0;
  private retry: NodeJS.Timeout | undefined;
  private ping: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(private readonly options: PostgresBusOptions) {
    this.minBackoffMs = options.minBackoffMs ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
  }

  /** Whether the listening connection is up (notifications are being received). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Connects the listener; if that fails the bus keeps trying in the background (caches expire meanwhile). */
  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (error) {
      this.options.log.warn({ err: error }, 'invalidation listener could not connect; retrying');
      this.schedule();
    }
    const pingMs = this.options.pingMs ?? 30_000;
    if (pingMs > 0) {
      this.ping = setInterval(() => this.check(pingMs), pingMs);
      this.ping.unref();
    }
  }

  /** A connection that cannot answer a query within `timeoutMs` is treated as lost. */
  private check(timeoutMs: number): void {
    const client = this.client;
    if (!client) return;
    const timer = setTimeout(
      () => this.lost(client, new Error('the listening connection stopped answering')),
      timeoutMs,
    );
    timer.unref();
    const done = () => clearTimeout(timer);
    client.query('SELECT 1').then(done, done);
  }

  private async connect(): Promise<void> {
    const client = this.options.client();
    client.on('notification', (message) => {
      if (message.channel === INVALIDATION_CHANNEL && client === this.client) {
        this.subscribers.deliver(parse(message.payload));
      }
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch (error) {
      client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    const reconnected = this.attempts > 0;
    this.client = client;
    this.attempts = 0;
    // Whatever was announced while nobody listened is unknown: forget everything.
    this.subscribers.deliver({ kind: 'all' });
    if (reconnected) this.options.log.info({}, 'invalidation listener reconnected');
  }

  private lost(client: ListenerClient, error?: Error): void {
    if (client !== this.client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.subscribers.deliver({ kind: 'all' });
    if (this.closed) return;
    this.options.log.warn({ err: error }, 'invalidation listener lost its connection; reconnecting');
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.retry) return;
    const ceiling = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** this.attempts);
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.attempts++;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().catch((error: unknown) => {
        if (this.attempts === 1 || this.attempts % 10 === 0) {
          this.options.log.warn({ err: error, attempts: this.attempts }, 'invalidation listener still reconnecting');
        }
        this.schedule();
      });
    }, delay);
    this.retry.unref();
  }

  async publish(change: Published, db: Database = this.options.db): Promise<void> {
    this.subscribers.deliver(change);
    await db.execute(sql`SELECT pg_notify(${INVALIDATION_CHANNEL}, ${JSON.stringify(change)})`);
  }

  subscribe(listener: (change: Invalidation) => void): () => void {
    return this.subscribers.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.ping);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * The bus for this database: over PostgreSQL (given its URL) a LISTEN/NOTIFY bus with its own
 * connection; otherwise (the embedded engine, owned by this process) the in-process one.
 */
export async function createInvalidationBus(options: {
  engine: 'pglite' | 'postgres';
  url: string | undefined;
  db: Database;
  log: PostgresBusOptions['log'];
}): Promise<InvalidationBus> {
  if (options.engine !== 'postgres' || !options.url) return new LocalInvalidationBus();
  const { default: pg } = await import('pg');
  const url = options.url;
  const bus = new PostgresInvalidationBus({
    db: options.db,
    log: options.log,
    client: () =>
      new pg.Client({
        connectionString: url,
        application_name: 'gantry-invalidation',
        keepAlive: true,
        // An unreachable server must not hold the start (or a reconnection) for long.
        connectionTimeoutMillis: 10_000,
      }),
  });
  await bus.start();
  return bus;
}
