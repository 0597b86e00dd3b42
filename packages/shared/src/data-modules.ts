/**
 * A project's data modules (backups-data-designer.md §3, "Data module choices"): the groups a backup
 * offers, and the collections of JSON documents each group holds. `catalog` belongs to two groups.
 */
export const DATA_MODULE_GROUPS = {
  dashboards: ['dashboard', 'catalog', 'site', 'component', 'style', 'script_setting', 'resource_type'],
  data: ['table', 'table_record', 'table_data', 'dept'],
  auth: ['user', 'role', 'safezone'],
  rule: ['rule'],
  setting: ['setting'],
  data_interface: ['data_interface'],
  cron: ['cron'],
  report: ['report', 'catalog', 'report_copy'],
  message: ['message'],
  app: ['oauth_app'],
  data_record: ['data_record'],
  system: ['system_variable'],
  theme: ['theme'],
  flow: ['flow', 'flow_instance_cron', 'flow_log_clean'],
  driver: ['driver_instance'],
  driver_event: ['driver_event_cron'],
  command_manage: ['driver_instruct_cron'],
  dataset: ['dataset'],
  dataset_view: ['dataset_view'],
  algorithm: ['algorithm'],
  sync: ['sync'],
} as const satisfies Record<string, readonly string[]>;

export type DataModuleGroup = keyof typeof DATA_MODULE_GROUPS;
export type Collection = (typeof DATA_MODULE_GROUPS)[DataModuleGroup][number];

/** Every collection a project can hold, each once, in the table's order. */
export const COLLECTIONS: readonly Collection[] = [...new Set(Object.values(DATA_MODULE_GROUPS).flat())];

const COLLECTION_SET: ReadonlySet<string> = new Set(COLLECTIONS);

export function isCollection(name: string): name is Collection {
  return COLLECTION_SET.has(name);
}

/** The time-series collection: its documents carry a time field, and settings' retention applies. */
export const TIME_SERIES_COLLECTION: Collection = 'data_record';

/** Limits of one document as the generic data layer takes it. */
export const DOCUMENT_LIMITS = {
  /** Bytes of the document's JSON text. */
  bytes: 1024 * 1024,
  /** Nesting of objects and arrays. */
  depth: 32,
  /** An `id` / `_id` given by the client: printable, no slash (it is a path segment). */
  idMax: 128,
} as const;

/** A client-given document id: letters, digits and `_ - . : @`, not starting with a dot. */
export const DOCUMENT_ID_PATTERN = /^[A-Za-z0-9_\-:@][A-Za-z0-9_\-.:@]*$/;

/** What the progress websocket answers to a missing, bad or expired token, then closes (the client stops retrying). */
export const WS_AUTH_FAILED = 'failed to get current user ID';
/** The client's keep-alive period on the progress websocket. */
export const WS_KEEPALIVE_MS = 30_000;
/**
 * How long the console waits for the progress websocket to open, or to say anything of a running
 * task, before it polls the task instead. The hub speaks of a running task every second, but on the
 * embedded engine its look waits for any transaction in progress (an install's own writes hold the
 * one session for seconds on a busy machine): a few seconds of silence are not a lost socket.
 */
export const TASK_SOCKET_PATIENCE_MS = 10_000;
