import { describe, expect, it } from 'vitest';
import { Admission, type Release, StatementOwner, SYSTEM_TENANT, statementOwner } from './admission.js';

/** Asks for a slot as `tenant`; records the order in which slots were given; `done`: gives it back at once. */
function asker(admission: Admission, order: string[]) {
  return (tenant: string, label = tenant, done = false): Promise<Release> =>
    statementOwner.run(new StatementOwner(() => tenant), async () => {
      const release = await admission.enter();
      order.push(label);
      if (done) release();
      return release;
    });
}

describe('admission: fair sharing of the request pool', () => {
  it('never gives one tenant more than its share; a freed slot goes to the tenant with the fewest running', async () => {
    const admission = new Admission({ slots: 2, share: 1 });
    const order: string[] = [];
    const ask = asker(admission, order);
    const b1 = await ask('b', 'b1');
    const b2 = ask('b', 'b2');
    const b3 = ask('b', 'b3');
    // B is at its share: the free slot goes to A at once.
    const a1 = await ask('a', 'a1');
    expect(order).toEqual(['b1', 'a1']);
    const a2 = ask('a', 'a2');
    b1();
    await b2;
    expect(order).toEqual(['b1', 'a1', 'b2']);
    a1();
    await a2;
    expect(order).toEqual(['b1', 'a1', 'b2', 'a2']);
    expect(admission.queued).toBe(1);
    (await b2)();
    (await a2)();
    (await b3)();
    expect(admission.queued).toBe(0);
  });

  it('serves tenants in turn when they run as many, and a tenant running nothing first', async () => {
    const admission = new Admission({ slots: 1, share: 1 });
    const order: string[] = [];
    const ask = asker(admission, order);
    const first = await ask('b', 'b1');
    const waiting = ['b2', 'b3', 'c1', 'c2', 'a1'].map((label) => ask(label.slice(0, 1), label, true));
    first();
    await Promise.all(waiting);
    // B was served last: C, then A (never served), then B, C, B.
    expect(order).toEqual(['b1', 'c1', 'a1', 'b2', 'c2', 'b3']);
  });

  it('queues a statement outside any request context as the system tenant, never past a waiting tenant', async () => {
    const admission = new Admission({ slots: 1, share: 1 });
    const order: string[] = [];
    const tenants: string[] = [];
    admission.watch((event) => {
      if (event.kind === 'admit') tenants.push(event.tenant);
    });
    const ask = asker(admission, order);
    const held = await ask('b', 'b1');
    const a = ask('a', 'a1', true);
    // No statement context (start-up, timers): it waits for the slot like any tenant's statement.
    const outside = Promise.resolve(admission.enter()).then((release) => {
      order.push('outside');
      release();
    });
    await Promise.resolve();
    expect(admission.queued).toBe(2);
    expect(order).toEqual(['b1']);
    held();
    await Promise.all([a, outside]);
    expect(order).toEqual(['b1', 'a1', 'outside']);
    expect(tenants).toEqual(['b', 'a', SYSTEM_TENANT]);
  });

  it('lets a statement through at once beside its own transaction, and a release counts once', async () => {
    const admission = new Admission({ slots: 1, share: 1 });
    const order: string[] = [];
    const owner = new StatementOwner(() => 'a');
    const transaction = await statementOwner.run(owner, () => admission.enter());
    owner.transactions++;
    const inside = await statementOwner.run(owner, () => admission.enter());
    const other = asker(admission, order)('b');
    inside();
    inside();
    // The transaction still holds the one slot.
    await Promise.resolve();
    expect(order).toEqual([]);
    owner.transactions--;
    transaction();
    (await other)();
    expect(order).toEqual(['b']);
  });
});
