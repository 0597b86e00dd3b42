import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../../db/database.js';

/** What a backup or restore archive belongs to: a project's backup, or a project's database backup. */
export type ArchiveKind = 'project' | 'database';

/** Where backups and restores report what they moved (the services call it at their end, when given). */
export interface ArchiveMetrics {
  backup(kind: ArchiveKind, bytes: number, seconds: number): void;
  restore(kind: ArchiveKind, bytes: number, seconds: number): void;
}

/** Row counts read at scrape time (`MetricsRepository.counts`). */
export interface ScrapeCounts {
  sessions: number;
  tenants: { enabled: number; disabled: number };
  projects: { enabled: number; disabled: number };
  /** Tasks waiting (no runner yet) and running, by type. */
  tasks: Array<{ type: string; running: boolean; n: number }>;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LONG_WORK_BUCKETS = [0.5, 1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14400];

/**
 * The server's Prometheus metrics (issue 34 item 4), in a registry of this app's own (tests build
 * many apps in one process). Built only when `GANTRY_METRICS_TOKEN` is set: with it unset nothing
 * here exists and no hook measures anything. Events are counted where they happen (the recorders
 * below); row counts are read at scrape time (`scrape`).
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'gantry_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'gantry_http_request_duration_seconds',
    help: 'Time from a request received to its answer sent, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  private readonly tasksFinished = new Counter({
    name: 'gantry_tasks_finished_total',
    help: 'Tasks that ended in this process, by type and status (success, failed, pause)',
    labelNames: ['type', 'status'] as const,
    registers: [this.registry],
  });
  private readonly taskSeconds = new Histogram({
    name: 'gantry_task_duration_seconds',
    help: 'Run time of the tasks that ended in this process, by type and status',
    labelNames: ['type', 'status'] as const,
    buckets: LONG_WORK_BUCKETS,
    registers: [this.registry],
  });
  private readonly tasksQueued = new Gauge({
    name: 'gantry_tasks_queued',
    help: 'Tasks waiting to be claimed by a task engine, by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  private readonly tasksRunning = new Gauge({
    name: 'gantry_tasks_running',
    help: 'Tasks running (in any server process on this database), by type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  private readonly backupBytes = new Counter({
    name: 'gantry_backup_bytes_total',
    help: 'Bytes of the backup archives written, by kind (project, database)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly backupSeconds = new Histogram({
    name: 'gantry_backup_duration_seconds',
    help: 'Time to write a backup archive, by kind (project, database)',
    labelNames: ['kind'] as const,
    buckets: LONG_WORK_BUCKETS,
    registers: [this.registry],
  });
  private readonly restoreBytes = new Counter({
    name: 'gantry_restore_bytes_total',
    help: 'Bytes of the archives restored, by kind (project, database)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly restoreSeconds = new Histogram({
    name: 'gantry_restore_duration_seconds',
    help: 'Time to restore an archive, by kind (project, database)',
    labelNames: ['kind'] as const,
    buckets: LONG_WORK_BUCKETS,
    registers: [this.registry],
  });
  private readonly poolConnections = new Gauge({
    name: 'gantry_database_pool_connections',
    help: 'Connections of a database pool (request, background), by state (idle, busy)',
    labelNames: ['pool', 'state'] as const,
    registers: [this.registry],
  });
  private readonly poolWaiting = new Gauge({
    name: 'gantry_database_pool_waiting_clients',
    help: 'Callers waiting for a connection of a database pool',
    labelNames: ['pool'] as const,
    registers: [this.registry],
  });
  private readonly poolMax = new Gauge({
    name: 'gantry_database_pool_max_connections',
    help: 'The most connections a database pool opens',
    labelNames: ['pool'] as const,
    registers: [this.registry],
  });
  private readonly statementTimeouts = new Counter({
    name: 'gantry_database_statement_timeouts_total',
    help: 'Requests answered 503 queryTimeout: a statement stopped at its limit (both engines)',
    registers: [this.registry],
  });
  private readonly engineRestarts = new Counter({
    name: 'gantry_embedded_engine_restarts_total',
    help: 'Times the embedded database engine stopped on its own and was restarted, by reason (statement_limit, crashed)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly engineStatementTimeouts = new Counter({
    name: 'gantry_embedded_engine_statement_timeouts_total',
    help: "Statements the embedded engine's watchdog stopped at their limit (each restarts the engine)",
    registers: [this.registry],
  });
  private readonly sessions = new Gauge({
    name: 'gantry_sessions',
    help: 'Console sessions not yet expired',
    registers: [this.registry],
  });
  private readonly tenants = new Gauge({
    name: 'gantry_tenants',
    help: 'Tenant accounts, by status (enabled, disabled)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly projects = new Gauge({
    name: 'gantry_projects',
    help: 'Projects, by status (enabled, disabled)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly licenceRemaining = new Gauge({
    name: 'gantry_licence_remaining_seconds',
    help: 'Whole days the platform licence still covers, in seconds (days x 86400); 0 without a valid licence',
    registers: [this.registry],
  });
  private readonly ftpFailures = new Counter({
    name: 'gantry_ftp_failures_total',
    help: 'Failed FTP operations of database backup storage, by operation and failure',
    labelNames: ['operation', 'failure'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Node's own: CPU, memory, event-loop delay, garbage collection (process_*, nodejs_*).
    collectDefaultMetrics({ register: this.registry });
    // prom-client's gauges named like counters, which `promtool check metrics` refuses; their
    // per-type twins (nodejs_active_handles, nodejs_active_requests, nodejs_active_resources) stay.
    for (const name of [
      'nodejs_active_handles_total',
      'nodejs_active_requests_total',
      'nodejs_active_resources_total',
    ]) {
      this.registry.removeSingleMetric(name);
    }
    // Families with labels show from the first scrape, at zero where that says something.
    for (const pool of ['request', 'background'] as const) this.poolWaiting.set({ pool }, 0);
    this.statementTimeouts.inc(0);
    this.engineStatementTimeouts.inc(0);
  }

  /** One answered request (`route`: the route's pattern, `UNMATCHED_ROUTE` of metrics.routes.ts when none matched). */
  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.requestSeconds.observe({ method, route }, seconds);
  }

  taskFinished(type: string, status: string, seconds: number): void {
    this.tasksFinished.inc({ type, status });
    this.taskSeconds.observe({ type, status }, seconds);
  }

  readonly archives: ArchiveMetrics = {
    backup: (kind, bytes, seconds) => {
      this.backupBytes.inc({ kind }, bytes);
      this.backupSeconds.observe({ kind }, seconds);
    },
    restore: (kind, bytes, seconds) => {
      this.restoreBytes.inc({ kind }, bytes);
      this.restoreSeconds.observe({ kind }, seconds);
    },
  };

  statementTimeout(): void {
    this.statementTimeouts.inc();
  }

  engineStopped(reason: 'statement-limit' | 'crashed'): void {
    this.engineRestarts.inc({ reason: reason === 'statement-limit' ? 'statement_limit' : 'crashed' });
    if (reason === 'statement-limit') this.engineStatementTimeouts.inc();
  }

  ftpFailure(operation: string, failure: string): void {
    this.ftpFailures.inc({ operation, failure });
  }

  /** The values read at scrape time, then the exposition (Prometheus text format). */
  async scrape(now: { counts: ScrapeCounts; pools: PoolStats[]; licenceDays: number }): Promise<string> {
    const { counts } = now;
    this.sessions.set(counts.sessions);
    for (const status of ['enabled', 'disabled'] as const) {
      this.tenants.set({ status }, counts.tenants[status]);
      this.projects.set({ status }, counts.projects[status]);
    }
    // Types with no task waiting or running any more go back to 0 (reset), not to their last value.
    this.tasksQueued.reset();
    this.tasksRunning.reset();
    for (const row of counts.tasks) (row.running ? this.tasksRunning : this.tasksQueued).set({ type: row.type }, row.n);
    for (const pool of now.pools) {
      this.poolConnections.set({ pool: pool.pool, state: 'idle' }, pool.idle);
      this.poolConnections.set({ pool: pool.pool, state: 'busy' }, pool.total - pool.idle);
      this.poolWaiting.set({ pool: pool.pool }, pool.waiting);
      this.poolMax.set({ pool: pool.pool }, pool.max);
    }
    this.licenceRemaining.set(Math.max(0, now.licenceDays) * 86_400);
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
