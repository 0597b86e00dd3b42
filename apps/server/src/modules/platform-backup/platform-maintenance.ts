import { randomUUID } from 'node:crypto';
import type { Invalidation, InvalidationBus } from '../../lib/invalidation-bus.js';

/** How often a restoring node says it still restores; and how long the others believe it without news. */
export const MAINTENANCE_HEARTBEAT_MS = 3_000;
export const MAINTENANCE_EXPIRY_MS = 15_000;

export interface PlatformMaintenanceDeps {
  bus: InvalidationBus;
  now: () => number;
  /** This node's task engine: it claims nothing while another node replaces the tasks table. */
  tasks: { quiesce(): Promise<void>; resume(): Promise<void> };
  log: { warn(fields: object, message: string): void };
}

/**
 * A platform restore seen by every node sharing the database (issue 35 §2): the restoring node
 * announces it on the bus when it starts, every MAINTENANCE_HEARTBEAT_MS while it runs, and when it
 * ends; every other node then refuses API calls (the maintenance guard) and claims no task until the
 * end is announced, or until MAINTENANCE_EXPIRY_MS pass without news (the restoring node died: its
 * restore's transaction rolled back with it).
 */
export class PlatformMaintenance {
  /** This process, as the announcements name it. */
  readonly node = randomUUID();
  private heartbeat: NodeJS.Timeout | undefined;
  private other: { startTime: string; until: number; expiry: NodeJS.Timeout } | undefined;
  /** The engine's pauses and resumptions, one after the other. */
  private engine: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PlatformMaintenanceDeps) {}

  /** Since when another node restores the platform, while it does. */
  get otherRestoringSince(): string | undefined {
    return this.other && this.deps.now() < this.other.until ? this.other.startTime : undefined;
  }

  /** This node starts a restore: the others hear it now and every heartbeat until `end`. */
  async begin(startTime: string): Promise<void> {
    const announce = () => this.announce(true, startTime);
    await announce();
    this.heartbeat = setInterval(() => void announce(), MAINTENANCE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async end(startTime: string): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.announce(false, startTime);
  }

  /** What the bus delivers: another node's restore starting, going on or ending. */
  apply(change: Invalidation): void {
    if (change.kind !== 'maintenance' || change.node === this.node) return;
    if (change.restoring) this.hold(change.startTime);
    else this.release();
  }

  private hold(startTime: string): void {
    const first = !this.other;
    if (this.other) clearTimeout(this.other.expiry);
    const expiry = setTimeout(() => this.release(), MAINTENANCE_EXPIRY_MS);
    expiry.unref();
    this.other = { startTime, until: this.deps.now() + MAINTENANCE_EXPIRY_MS, expiry };
    if (first) this.queue(() => this.deps.tasks.quiesce());
  }

  private release(): void {
    if (!this.other) return;
    clearTimeout(this.other.expiry);
    this.other = undefined;
    this.queue(() => this.deps.tasks.resume());
  }

  private async announce(restoring: boolean, startTime: string): Promise<void> {
    await this.deps.bus
      .publish({ kind: 'maintenance', node: this.node, restoring, startTime })
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'platform restore not announced'));
  }

  private queue(step: () => Promise<void>): void {
    this.engine = this.engine.then(step).catch((error: unknown) => {
      this.deps.log.warn({ err: error }, 'the task engine did not follow the platform restore');
    });
  }
}
