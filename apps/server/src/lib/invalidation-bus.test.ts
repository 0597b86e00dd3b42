import { EventEmitter } from 'node:events';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database.js';
import {
  INVALIDATION_CHANNEL,
  type Invalidation,
  type ListenerClient,
  LocalInvalidationBus,
  PostgresInvalidationBus,
} from './invalidation-bus.js';

describe('the in-process bus', () => {
  it('delivers every change to every subscriber until it unsubscribes', async () => {
    const bus = new LocalInvalidationBus();
    const a: Invalidation[] = [];
    const b: Invalidation[] = [];
    const stopA = bus.subscribe((change) => a.push(change));
    bus.subscribe((change) => b.push(change));
    await bus.publish({ kind: 'user', userId: 'u1' });
    stopA();
    await bus.publish({ kind: 'licence' });
    expect(a).toEqual([{ kind: 'user', userId: 'u1' }]);
    expect(b).toEqual([{ kind: 'user', userId: 'u1' }, { kind: 'licence' }]);
  });
});

/** A stand-in for pg.Client: records queries, fails to connect while `refuse` is set. */
class FakeClient extends EventEmitter implements ListenerClient {
  queries: string[] = [];
  ended = false;
  answer = true;
  constructor(private readonly refuse: () => boolean) {
    super();
  }
  async connect(): Promise<void> {
    if (this.refuse()) throw new Error('connection refused');
  }
  query(text: string): Promise<unknown> {
    this.queries.push(text);
    return this.answer ? Promise.resolve({}) : new Promise(() => {});
  }
  async end(): Promise<void> {
    this.ended = true;
  }
  notify(payload: string, channel = INVALIDATION_CHANNEL): void {
    this.emit('notification', { channel, payload });
  }
}

const quietLog = { warn: () => {}, info: () => {} };

function fakeBus(options: { refuse?: () => boolean; db?: Database; pingMs?: number } = {}) {
  const clients: FakeClient[] = [];
  /** When each connection was attempted (Date.now(), fake timers in the backoff tests). */
  const attempts: number[] = [];
  const bus = new PostgresInvalidationBus({
    client: () => {
      const client = new FakeClient(options.refuse ?? (() => false));
      clients.push(client);
      attempts.push(Date.now());
      return client;
    },
    db: options.db ?? ({} as Database),
    log: quietLog,
    minBackoffMs: 100,
    maxBackoffMs: 1_000,
    pingMs: options.pingMs ?? 0,
  });
  const heard: Invalidation[] = [];
  bus.subscribe((change) => heard.push(change));
  return { bus, clients, heard, attempts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the PostgreSQL bus (with a stand-in connection)', () => {
  it('listens on its channel and delivers what is announced there, and nothing else', async () => {
    const { bus, clients, heard } = fakeBus();
    await bus.start();
    expect(clients[0]?.queries).toEqual([`LISTEN ${INVALIDATION_CHANNEL}`]);
    expect(heard).toEqual([{ kind: 'all' }]);
    heard.length = 0;
    clients[0]?.notify(JSON.stringify({ kind: 'session', tokenHash: 'abc' }));
    clients[0]?.notify(JSON.stringify({ kind: 'user', userId: 'acme' }));
    clients[0]?.notify(JSON.stringify({ kind: 'settings' }));
    clients[0]?.notify(JSON.stringify({ kind: 'site', projectId: 'plant1' }));
    clients[0]?.notify(JSON.stringify({ kind: 'tables', projectId: 'plant2', extra: 1 }));
    clients[0]?.notify(JSON.stringify({ kind: 'licence' }), 'another_channel');
    expect(heard).toEqual([
      { kind: 'session', tokenHash: 'abc' },
      { kind: 'user', userId: 'acme' },
      { kind: 'settings' },
      { kind: 'site', projectId: 'plant1' },
      { kind: 'tables', projectId: 'plant2' },
    ]);
    await bus.close();
  });

  it('forgets everything on a message it does not understand', async () => {
    const { bus, clients, heard } = fakeBus();
    await bus.start();
    heard.length = 0;
    const payloads = [
      'not json',
      '{"kind":"user"}',
      '{"kind":"session","tokenHash":1}',
      '{"kind":"new"}',
      '{"kind":"site"}',
      '{"kind":"tables","projectId":7}',
    ];
    for (const payload of payloads) clients[0]?.notify(payload);
    expect(heard).toEqual(payloads.map(() => ({ kind: 'all' })));
    await bus.close();
  });

  it('sends the announcement through the given handle (the transaction) and forgets here at once', async () => {
    const sent: Array<{ sql: string; params: unknown[] }> = [];
    const handle = {
      execute: async (query: SQL) => {
        sent.push(new PgDialect().sqlToQuery(query));
        return { rows: [] };
      },
    } as unknown as Database;
    const { bus, heard } = fakeBus();
    await bus.start();
    heard.length = 0;
    await bus.publish({ kind: 'user', userId: 'acme' }, handle);
    expect(heard).toEqual([{ kind: 'user', userId: 'acme' }]);
    expect(sent).toEqual([
      expect.objectContaining({
        sql: 'SELECT pg_notify($1, $2)',
        params: [INVALIDATION_CHANNEL, '{"kind":"user","userId":"acme"}'],
      }),
    ]);
    await bus.close();
  });

  it('when the connection drops: forgets everything, reconnects with backoff, forgets everything again', async () => {
    vi.useFakeTimers();
    let refuse = false;
    const { bus, clients, heard, attempts } = fakeBus({ refuse: () => refuse });
    await bus.start();
    heard.length = 0;
    const first = clients[0] as FakeClient;
    refuse = true;
    first.emit('error', new Error('terminating connection due to administrator command'));
    first.emit('end');
    expect(first.ended).toBe(true);
    expect(bus.listening).toBe(false);
    expect(heard).toEqual([{ kind: 'all' }]);
    const lostAt = Date.now();
    await vi.advanceTimersByTimeAsync(6_000);
    // Attempt n waits between half and all of min(100 ms × 2ⁿ, 1 s): growing, then capped.
    const waits = attempts.slice(1).map((at, n) => at - (n === 0 ? lostAt : (attempts[n] as number)));
    expect(waits.length).toBeGreaterThanOrEqual(8);
    waits.forEach((wait, n) => {
      const ceiling = Math.min(1_000, 100 * 2 ** n);
      expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
      expect(wait).toBeLessThanOrEqual(ceiling);
    });
    refuse = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(bus.listening).toBe(true);
    const current = clients.at(-1) as FakeClient;
    expect(current.queries).toEqual([`LISTEN ${INVALIDATION_CHANNEL}`]);
    expect(heard).toEqual([{ kind: 'all' }, { kind: 'all' }]);
    // The old connection is not listened to any more; the new one is.
    first.notify(JSON.stringify({ kind: 'licence' }));
    current.notify(JSON.stringify({ kind: 'settings' }));
    expect(heard.at(-1)).toEqual({ kind: 'settings' });
    expect(heard).toHaveLength(3);
    await bus.close();
  });

  it('keeps trying in the background when the first connection fails, and stops when closed', async () => {
    vi.useFakeTimers();
    let refuse = true;
    const { bus, clients } = fakeBus({ refuse: () => refuse });
    await bus.start();
    expect(bus.listening).toBe(false);
    await vi.advanceTimersByTimeAsync(150);
    expect(clients.length).toBeGreaterThanOrEqual(2);
    await bus.close();
    const tried = clients.length;
    refuse = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(clients).toHaveLength(tried);
  });

  it('treats a connection that stops answering its check as lost', async () => {
    vi.useFakeTimers();
    const { bus, clients, heard } = fakeBus({ pingMs: 1_000 });
    await bus.start();
    heard.length = 0;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(clients[0]?.queries.at(-1)).toBe('SELECT 1');
    expect(bus.listening).toBe(true);
    (clients[0] as FakeClient).answer = false;
    await vi.advanceTimersByTimeAsync(2_100);
    expect(heard[0]).toEqual({ kind: 'all' });
    await vi.advanceTimersByTimeAsync(200);
    expect(clients.length).toBe(2);
    expect(bus.listening).toBe(true);
    await bus.close();
  });
});
