import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Fair sharing of the request pool among tenants (issue 33). Every statement a request sends (or
 * transaction it opens) first takes one of `slots`; a tenant never holds more than `share` of them,
 * and a freed slot goes to the waiting tenant with the fewest statements running (ties in turn, the
 * one served longest ago first). So a tenant streaming heavy lists keeps its share while another
 * tenant's single reads are served between its statements, and a tenant that runs nothing now is
 * served first. On the embedded engine (one statement at a time) a tenant may have two sent, so
 * that the engine never waits for its next statement's round trip; the engine's process then runs
 * the waiting statements tenant by tenant (`pglite-host.ts`), so a statement never queues there
 * behind more than one statement of another tenant.
 */
export interface AdmissionPolicy {
  /** Statements (or transactions) sent to the database at once. */
  slots: number;
  /** The most of them one tenant may hold. */
  share: number;
}

/** What the scheduler did, in order (tests assert fairness by this order, not by time). */
export interface AdmissionEvent {
  kind: 'wait' | 'admit' | 'done';
  tenant: string;
  /** The statement's number, the same in its three events. */
  id: number;
}

/** Whose statements run in the current asynchronous context: a request's, set by `plugins/tenant-context.ts`. */
export class StatementOwner {
  /** Transactions this owner holds: its statements beside them are never queued (they would wait for themselves). */
  transactions = 0;
  constructor(private readonly tenantOf: () => string) {}
  get tenant(): string {
    return this.tenantOf();
  }
}

export const statementOwner = new AsyncLocalStorage<StatementOwner>();
/** The tenant of work outside any request (start-up, timers, the task engine). */
export const SYSTEM_TENANT = '';

export type Release = () => void;

export class Admission {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  /** Tenants with waiting statements, and their statements in order. */
  private readonly waiting = new Map<string, Array<() => void>>();
  /** When each tenant running or waiting was last given a slot (a turn number): ties go to the longest ago. */
  private readonly servedAt = new Map<string, number>();
  private turn = 0;
  private readonly listeners = new Set<(event: AdmissionEvent) => void>();
  private nextId = 0;

  constructor(readonly policy: AdmissionPolicy) {
    if (policy.share < 1 || policy.share > policy.slots) throw new Error('admission: share must be 1..slots');
  }

  /** Tells `listener` of every statement's wait, admission and end. */
  watch(listener: (event: AdmissionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Statements waiting now, by tenant (metrics, tests). */
  get queued(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /**
   * A slot for one statement (or transaction) of the current context's tenant (at once when one is
   * free); the caller calls the release once it is done. A context holding a transaction is let
   * through at once: its statement must not wait for the slot its own transaction holds.
   */
  enter(): Promise<Release> | Release {
    const owner = statementOwner.getStore();
    const tenant = owner?.tenant ?? SYSTEM_TENANT;
    const id = this.nextId++;
    if ((owner && owner.transactions > 0) || (this.waiting.size === 0 && this.fits(tenant))) {
      return this.admit(tenant, id);
    }
    this.emit('wait', tenant, id);
    return new Promise<Release>((resolve) => {
      let queue = this.waiting.get(tenant);
      if (!queue) {
        queue = [];
        this.waiting.set(tenant, queue);
      }
      queue.push(() => resolve(this.admit(tenant, id)));
      this.dispatch();
    });
  }

  private fits(tenant: string): boolean {
    return this.running < this.policy.slots && (this.runningBy.get(tenant) ?? 0) < this.policy.share;
  }

  private admit(tenant: string, id: number): Release {
    this.running++;
    this.runningBy.set(tenant, (this.runningBy.get(tenant) ?? 0) + 1);
    this.servedAt.set(tenant, this.turn++);
    this.emit('admit', tenant, id);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.runningBy.get(tenant) ?? 1) - 1;
      if (left > 0) this.runningBy.set(tenant, left);
      else {
        this.runningBy.delete(tenant);
        if (!this.waiting.has(tenant)) this.servedAt.delete(tenant);
      }
      this.emit('done', tenant, id);
      this.dispatch();
    };
  }

  /** Gives free slots to waiting tenants below their share: the fewest running first, then the one served longest ago. */
  private dispatch(): void {
    while (this.running < this.policy.slots) {
      let chosen: string | undefined;
      let fewest = 0;
      let longestAgo = 0;
      for (const tenant of this.waiting.keys()) {
        const running = this.runningBy.get(tenant) ?? 0;
        if (running >= this.policy.share) continue;
        const servedAt = this.servedAt.get(tenant) ?? -1;
        if (chosen === undefined || running < fewest || (running === fewest && servedAt < longestAgo)) {
          chosen = tenant;
          fewest = running;
          longestAgo = servedAt;
        }
      }
      if (chosen === undefined) return;
      const queue = this.waiting.get(chosen) ?? [];
      const next = queue.shift();
      if (queue.length === 0) this.waiting.delete(chosen);
      next?.();
    }
  }

  private emit(kind: AdmissionEvent['kind'], tenant: string, id: number): void {
    if (this.listeners.size === 0) return;
    for (const listener of this.listeners) listener({ kind, tenant, id });
  }
}
